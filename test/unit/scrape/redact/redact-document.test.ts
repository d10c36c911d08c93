import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { redactionSettings } from '../../../../shared/api/v2/redact-pii';
import { TabhiveError } from '../../../../server/platform/errors/tabhive-error';
import { createLlmProvider, type LlmProvider } from '../../../../server/platform/llm/llm-provider';
import { redactDocument } from '../../../../server/scrape/enrich/redact/redact-document';
import type { ScrapeDocument } from '../../../../server/scrape/types/scrape-document';
import { startFakeLlmServer } from '../../../helpers/fake-llm-server';

const page = (): ScrapeDocument => ({
  markdown: '# Ada Lovelace\n\nWrite to ada@example.com or call +44 20 7946 0958. She lived in London.',
  html: '<h1>Ada Lovelace</h1><p>Write to <a href="mailto:ada@example.com">ada@example.com</a>.</p>',
  rawHtml: '<html><body><h1>Ada Lovelace</h1><p>ada@example.com</p></body></html>',
  links: ['https://example.com/about', 'mailto:ada@example.com'],
  images: ['https://example.com/a.png?owner=ada@example.com'],
  summary: 'Ada Lovelace can be reached at ada@example.com.',
  json: { contact: { email: 'ada@example.com', phones: ['+44 20 7946 0958'] }, employees: 3 },
  screenshot: 'data:image/png;base64,iVBORw0KGgo=',
  metadata: {
    title: 'Ada Lovelace – ada@example.com',
    description: 'Call +44 20 7946 0958',
    ogTitle: 'Ada Lovelace',
    keywords: ['ada@example.com', 'maths'],
    sourceURL: 'https://example.com/ada?ref=ada@example.com',
    url: 'https://example.com/ada?ref=ada@example.com',
    statusCode: 200,
    scrapeId: 'id-1',
    creditsUsed: 1,
    proxyUsed: 'basic',
  },
});

let llmServer: Awaited<ReturnType<typeof startFakeLlmServer>>;
let llm: LlmProvider;
beforeAll(async () => {
  llmServer = await startFakeLlmServer();
  llm = createLlmProvider({ baseUrl: llmServer.baseUrl })!;
});
afterAll(async () => llmServer?.close());
beforeEach(() => llmServer.reset());

describe('document redaction', () => {
  it('redacts every text output, the metadata that tells about the page, and URLs, but not ids or images', async () => {
    const settings = redactionSettings({ entities: ['EMAIL', 'PHONE'] })!;
    const redacted = await redactDocument(page(), settings, { llm: undefined });
    expect(redacted.markdown).toBe(
      '# Ada Lovelace\n\nWrite to <EMAIL> or call <PHONE>. She lived in London.',
    );
    expect(redacted.html).toBe(
      '<h1>Ada Lovelace</h1><p>Write to <a href="mailto:&lt;EMAIL&gt;">&lt;EMAIL&gt;</a>.</p>',
    );
    expect(redacted.rawHtml).toBe('<html><body><h1>Ada Lovelace</h1><p>&lt;EMAIL&gt;</p></body></html>');
    expect(redacted.links).toEqual(['https://example.com/about', 'mailto:<EMAIL>']);
    expect(redacted.images).toEqual(['https://example.com/a.png?owner=<EMAIL>']);
    expect(redacted.summary).toBe('Ada Lovelace can be reached at <EMAIL>.');
    expect(redacted.json).toEqual({ contact: { email: '<EMAIL>', phones: ['<PHONE>'] }, employees: 3 });
    expect(redacted.screenshot).toBe('data:image/png;base64,iVBORw0KGgo=');
    expect(redacted.metadata).toEqual({
      ...page().metadata,
      title: 'Ada Lovelace – <EMAIL>',
      description: 'Call <PHONE>',
      keywords: ['<EMAIL>', 'maths'],
    });
    expect(redacted.warning).toBe(
      'redactPII: screenshots and PDFs are images and files; they were not redacted.',
    );
  });

  it('says that names and places need an LLM when there is none, and redacts the rest', async () => {
    const redacted = await redactDocument({ ...page(), screenshot: undefined }, redactionSettings(true)!, {
      llm: undefined,
    });
    expect(redacted.markdown).toContain('<EMAIL>');
    expect(redacted.markdown).toContain('Ada Lovelace');
    expect(redacted.warning).toBe(
      'PERSON and LOCATION were not redacted: finding them needs an LLM (LLM_BASE_URL), and none is configured.',
    );
  });

  it('asks the LLM for names and places and replaces them everywhere', async () => {
    llmServer.answer(JSON.stringify({ PERSON: ['Ada Lovelace', 'Charles Babbage'], LOCATION: ['London'] }));
    const redacted = await redactDocument({ ...page(), screenshot: undefined }, redactionSettings(true)!, {
      llm,
    });
    expect(redacted.markdown).toBe(
      '# <PERSON>\n\nWrite to <EMAIL> or call <PHONE>. She lived in <LOCATION>.',
    );
    expect(redacted.html).toBe(
      '<h1>&lt;PERSON&gt;</h1><p>Write to <a href="mailto:&lt;EMAIL&gt;">&lt;EMAIL&gt;</a>.</p>',
    );
    expect(redacted.metadata.title).toBe('<PERSON> – <EMAIL>');
    expect(redacted.metadata.ogTitle).toBe('<PERSON>');
    expect(redacted.summary).toBe('<PERSON> can be reached at <EMAIL>.');
    expect(redacted.warning).toBeUndefined();
    // One call, with the page's prose and only the entities asked for.
    expect(llmServer.requests).toHaveLength(1);
    const prompt = llmServer.requests[0]!.body.messages.map((message) => message.content).join('\n');
    expect(prompt).toContain('She lived in London.');
    expect(prompt).toContain('"PERSON" and "LOCATION"');
    expect(llmServer.requests[0]!.body.response_format).toEqual({ type: 'json_object' });
  });

  it('asks for one entity alone when only that one is wanted, and ignores names the page does not contain', async () => {
    llmServer.answer('```json\n{"LOCATION": ["London", "Paris"], "PERSON": ["Ada Lovelace"]}\n```');
    const redacted = await redactDocument(page(), redactionSettings({ entities: ['LOCATION'] })!, { llm });
    expect(redacted.markdown).toBe(
      '# Ada Lovelace\n\nWrite to ada@example.com or call +44 20 7946 0958. She lived in <LOCATION>.',
    );
    const system = llmServer.requests[0]!.body.messages[0]!.content;
    expect(system).toContain('"LOCATION"');
    expect(system).not.toContain('"PERSON"');
  });

  it('uses no model in the fast mode, or under zero data retention, and says so', async () => {
    const fast = await redactDocument(page(), redactionSettings({ mode: 'fast' })!, { llm });
    expect(fast.warning).toContain(
      'redactPII mode "fast" uses patterns only: PERSON and LOCATION were not redacted.',
    );
    const zdr = await redactDocument(page(), redactionSettings(true)!, {
      llm: undefined,
      noModelReason: 'zeroDataRetention',
    });
    expect(zdr.warning).toContain('With zeroDataRetention the page is not sent to the LLM');
    expect(llmServer.requests).toHaveLength(0);
  });

  it('catches the parts of a name too in the aggressive mode', async () => {
    llmServer.answer(JSON.stringify({ PERSON: ['Ada Lovelace'] }));
    const redacted = await redactDocument(
      { markdown: 'Ada Lovelace wrote notes. Later Lovelace published them.', metadata: page().metadata },
      redactionSettings({ mode: 'aggressive', entities: ['PERSON'] })!,
      { llm },
    );
    expect(redacted.markdown).toBe('<PERSON> wrote notes. Later <PERSON> published them.');
  });

  it('fails the scrape rather than return the page unredacted when the LLM fails', async () => {
    llmServer.answer({ status: 500, body: '{"error":"overloaded"}' });
    const failure = await redactDocument(page(), redactionSettings(true)!, { llm }).catch(
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(TabhiveError);
    expect(failure).toMatchObject({ kind: 'failed', code: 'SCRAPE_PII_REDACTION_FAILED' });
    llmServer.answer('these are the names: Ada');
    await expect(redactDocument(page(), redactionSettings(true)!, { llm })).rejects.toMatchObject({
      code: 'SCRAPE_PII_REDACTION_FAILED',
    });
  });

  it('leaves the bytes of an unparsed PDF alone, and says so', async () => {
    const pdf = `JVBERi0xLjQK${'QUJD'.repeat(10)}AKIAIOSFODNN7EXAMPLE`;
    const redacted = await redactDocument(
      { markdown: pdf, metadata: page().metadata },
      redactionSettings({ entities: ['SECRET'] })!,
      { llm: undefined },
    );
    expect(redacted.markdown).toBe(pdf);
    expect(redacted.warning).toContain('PDFs are images and files');
  });
});
