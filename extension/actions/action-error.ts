/**
 * An action could not do what it was asked (no element, a script threw, output too large). The
 * action runner adds which action it was; the server answers SCRAPE_ACTION_ERROR.
 */
export class ActionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ActionError';
  }
}
