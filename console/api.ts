import { forgetKey, readKey } from './session-key';

/** An answer that was not 2xx, with the API's error message when it sent one. */
export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Called when a key stops working (revoked): the app goes back to sign-in. */
let onUnauthorized: () => void = () => {};
export const whenUnauthorized = (listener: () => void) => {
  onUnauthorized = listener;
};

const errorMessage = (status: number, body: unknown) => {
  const record = (body ?? {}) as { error?: unknown };
  return typeof record.error === 'string' ? record.error : `HTTP ${status}`;
};

/** A request to this server with the signed-in key as Bearer. */
export async function call(
  path: string,
  init: { method?: string; body?: unknown; key?: string } = {},
): Promise<Response> {
  const key = init.key ?? readKey() ?? '';
  const response = await fetch(path, {
    method: init.method ?? 'GET',
    headers: {
      Authorization: `Bearer ${key}`,
      ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  if (response.status === 401 && init.key === undefined) {
    forgetKey();
    onUnauthorized();
  }
  return response;
}

/** A JSON request; throws ApiCallError on a non-2xx answer. */
export async function callJson<T>(
  path: string,
  init: { method?: string; body?: unknown; key?: string } = {},
) {
  const response = await call(path, init);
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) throw new ApiCallError(response.status, errorMessage(response.status, body));
  return body as T;
}

export interface WhoAmI {
  admin: boolean;
  team: { id: string; name: string } | null;
}

export const whoAmI = (key?: string) =>
  callJson<{ data: WhoAmI }>('/console/api/whoami', key === undefined ? {} : { key }).then(
    (body) => body.data,
  );
