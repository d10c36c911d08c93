import { CrawlRequestV2 } from '../../../shared/api/v2/crawl-request';
import { errors } from '../../platform/errors';
import { parseBody } from '../../platform/input';
import {
  PromptNotUnderstoodError,
  type CrawlPromptReader,
  type PromptReading,
} from './create-crawl-prompt-reader';
import { promptOf, withoutNullOptions, withPromptOptions } from './with-prompt-options';

/**
 * A `POST /v2/crawl` body, with its `prompt` read into options that fill in what the caller left
 * out. The body is validated before the prompt is read (a bad body never costs a model call) and
 * again with the generated options in.
 */
export async function parseCrawlRequestV2(
  body: unknown,
  readCrawlPrompt: CrawlPromptReader,
): Promise<{ request: CrawlRequestV2; reading?: PromptReading }> {
  const prompt = promptOf(body);
  if (prompt === undefined) return { request: parseBody(CrawlRequestV2, body) };
  const explicit = withoutNullOptions(body);
  const request = parseBody(CrawlRequestV2, explicit);
  let reading: PromptReading;
  try {
    reading = await readCrawlPrompt({ url: request.url.url, prompt });
  } catch (err) {
    if (err instanceof PromptNotUnderstoodError) throw errors.promptNotUnderstood(true);
    throw err;
  }
  return { request: parseBody(CrawlRequestV2, withPromptOptions(explicit, reading.options)), reading };
}
