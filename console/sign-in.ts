import { h } from 'preact';
import { useState } from 'preact/hooks';
import { ApiCallError, whoAmI, type WhoAmI } from './api';
import { saveKey } from './session-key';

/** Asks for an API key (a team's, or ADMIN_API_KEY) and checks it before keeping it. */
export function SignIn({ onSignedIn }: { onSignedIn: (who: WhoAmI) => void }) {
  const [key, setKey] = useState('');
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    const trimmed = key.trim();
    if (trimmed === '') {
      setProblem('Enter an API key.');
      return;
    }
    setBusy(true);
    try {
      const who = await whoAmI(trimmed);
      saveKey(trimmed);
      onSignedIn(who);
    } catch (err) {
      setProblem(
        err instanceof ApiCallError && err.status === 401 ? 'This API key is not valid.' : String(err),
      );
    } finally {
      setBusy(false);
    }
  };

  return h(
    'main',
    { class: 'sign-in', id: 'main' },
    h('h1', null, 'Tabhive console'),
    h(
      'form',
      { onSubmit: submit, 'aria-describedby': 'key-help' },
      h('label', { for: 'api-key' }, 'API key'),
      h('input', {
        id: 'api-key',
        type: 'password',
        autocomplete: 'off',
        spellcheck: false,
        value: key,
        onInput: (event: Event) => setKey((event.currentTarget as HTMLInputElement).value),
        'aria-invalid': problem === '' ? undefined : 'true',
        'aria-describedby': 'key-error',
        autofocus: true,
      }),
      h(
        'p',
        { id: 'key-help', class: 'hint' },
        "A team's API key shows that team; the admin key (ADMIN_API_KEY) shows every team. The key stays in this tab's session storage.",
      ),
      h('p', { id: 'key-error', class: 'error', role: 'alert' }, problem),
      h('button', { type: 'submit', disabled: busy }, busy ? 'Signing in…' : 'Sign in'),
    ),
  );
}
