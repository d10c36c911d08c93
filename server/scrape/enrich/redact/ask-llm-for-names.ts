import { z } from 'zod';
import type { PiiEntity } from '../../../../shared/api/v2/redact-pii';
import { LlmError, type LlmProvider } from '../../../platform/llm';

/** The entities only a model can find: names of people and of places. */
export type NamedEntity = Extract<PiiEntity, 'PERSON' | 'LOCATION'>;

/** What a model may answer: lists of strings per entity (unknown keys and non-strings are dropped). */
const Answer = z.looseObject({
  PERSON: z.array(z.unknown()).optional(),
  LOCATION: z.array(z.unknown()).optional(),
});

/** A name shorter than this is a letter or an initial: replacing it everywhere would shred the text. */
const MIN_NAME_CHARS = 2;
const MAX_NAME_CHARS = 200;

const DESCRIPTIONS: Record<NamedEntity, string> = {
  PERSON:
    'PERSON: names of people (full names, first or last names alone, usernames that are personal names)',
  LOCATION:
    'LOCATION: places tied to people or the page: street addresses, cities, regions, countries, landmarks',
};

/**
 * Models often wrap JSON in a Markdown fence even when told not to; accept that much. Cut by hand:
 * the answer may echo the page, and no pattern should be run over it that could backtrack.
 */
function parseAnswer(text: string): unknown {
  let body = text.trim();
  if (body.startsWith('```')) {
    const newline = body.indexOf('\n');
    body = newline < 0 ? '' : body.slice(newline + 1);
    if (body.trimEnd().endsWith('```')) body = body.trimEnd().slice(0, -3);
  }
  return JSON.parse(body) as unknown;
}

/**
 * Asks the model which strings of `text` are names of people and places, as they appear in it.
 * Only strings that really occur in the text are kept, so an invented answer replaces nothing.
 * A failed call or an answer that is not the JSON asked for throws LlmError: the caller fails the
 * scrape rather than return the page unredacted.
 */
export async function askLlmForNames(
  llm: LlmProvider,
  text: string,
  entities: readonly NamedEntity[],
): Promise<Array<{ text: string; entity: NamedEntity }>> {
  const answer = await llm.complete(
    [
      {
        role: 'system',
        content:
          'You find personal data in text so that it can be redacted. Answer with a single JSON object ' +
          `whose keys are ${entities.map((entity) => JSON.stringify(entity)).join(' and ')}, each a list of the ` +
          'exact strings of that kind as they appear in the text (same spelling and case), without ' +
          'repeats. Leave out what is not there; never invent strings.\n' +
          entities.map((entity) => DESCRIPTIONS[entity]).join('\n'),
      },
      { role: 'user', content: `Text:\n${text}` },
    ],
    { json: true },
  );
  let parsed: z.infer<typeof Answer>;
  try {
    parsed = Answer.parse(parseAnswer(answer));
  } catch {
    throw new LlmError('the LLM did not answer with the JSON object of names asked for');
  }
  const found: Array<{ text: string; entity: NamedEntity }> = [];
  for (const entity of entities) {
    for (const value of parsed[entity] ?? []) {
      if (typeof value !== 'string') continue;
      const name = value.trim();
      if (name.length < MIN_NAME_CHARS || name.length > MAX_NAME_CHARS || !text.includes(name)) continue;
      found.push({ text: name, entity });
    }
  }
  return found;
}
