/** A server that gave no answer at all: its origin, and the system's reason (ECONNREFUSED, …). */
export class NoAnswer extends Error {
  constructor(
    readonly origin: string,
    readonly reason: string,
  ) {
    super(`no answer from ${origin} (${reason})`);
    this.name = 'NoAnswer';
  }
}

/** Why fetch got no answer: undici puts the system error (ECONNREFUSED, ENOTFOUND, …) in `cause`. */
function reasonOf(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return err instanceof Error ? err.message : String(err);
}

/**
 * One JSON request of the command lines to a Tabhive server: the bearer key, a JSON body when
 * there is one, and the answer's text and JSON (undefined when it is not JSON). The callers judge
 * the status in their own words; a server that does not answer is a NoAnswer.
 */
export async function sendJson(
  url: URL,
  { method, bearer, body }: { method: string; bearer: string | undefined; body?: unknown },
): Promise<{ response: Response; text: string; json: unknown }> {
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: {
        accept: 'application/json',
        ...(bearer === undefined ? {} : { authorization: `Bearer ${bearer}` }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (err) {
    throw new NoAnswer(url.origin, reasonOf(err));
  }
  const text = await response.text().catch(() => '');
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { response, text, json };
}
