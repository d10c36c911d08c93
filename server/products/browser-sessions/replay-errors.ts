import { TabhiveError } from '../../platform/errors';

/** The replay routes' own errors (Firecrawl's messages); codes are stable once shipped. */
export const replayErrors = {
  notFound: () => new TabhiveError('not-found', 'Replay not found.', { code: 'REPLAY_NOT_FOUND' }),
  invalidPage: () => new TabhiveError('invalid-input', 'Invalid pageId.', { code: 'BAD_REQUEST' }),
};
