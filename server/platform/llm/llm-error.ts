/** A failed call to the provider: unreachable, timed out, refused, or an answer with no text. */
export class LlmError extends Error {
  override name = 'LlmError';
}
