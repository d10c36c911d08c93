import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiCallError, callJson, type WhoAmI } from './api';
import { curlSnippet, javascriptSnippet, notInPythonSdk, pythonSnippet } from './code-snippets';
import type { ScrapeDocument } from './console-types';
import { DocumentViewer } from './document-viewer';
import {
  buildScrapeRequest,
  initialFormState,
  scrapeFormFromOpenApi,
  type FormState,
  type ScrapeForm,
} from './schema-form';
import { SchemaFormFields } from './schema-form-view';
import { readKey } from './session-key';

/** The form comes from the server's own request schema, fetched once per page load. */
let scrapeForm: Promise<ScrapeForm> | undefined;
const loadScrapeForm = () => {
  scrapeForm ??= fetch('/openapi.json')
    .then((response) => {
      if (!response.ok) throw new Error(`GET /openapi.json answered HTTP ${response.status}`);
      return response.json() as Promise<unknown>;
    })
    .then(scrapeFormFromOpenApi);
  scrapeForm.catch(() => (scrapeForm = undefined));
  return scrapeForm;
};

const LANGUAGES = {
  curl: { name: 'curl', make: curlSnippet },
  javascript: { name: 'JavaScript SDK', make: javascriptSnippet },
  python: { name: 'Python SDK', make: pythonSnippet },
} as const;
type Language = keyof typeof LANGUAGES;

const inputValue = (event: Event) => (event.currentTarget as HTMLInputElement).value;

/** A scrape as form fields, its result beside it, and the same request as code that runs unchanged. */
export function PlaygroundView({ who }: { who: WhoAmI }) {
  const [form, setForm] = useState<ScrapeForm | null>(null);
  const [formProblem, setFormProblem] = useState('');
  const [state, setState] = useState<FormState>(initialFormState);
  const [result, setResult] = useState<ScrapeDocument | null>(null);
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);
  const [language, setLanguage] = useState<Language>('curl');
  const [copied, setCopied] = useState('');
  useEffect(() => {
    loadScrapeForm().then(setForm, (error: unknown) =>
      setFormProblem(
        `The options could not be loaded: ${error instanceof Error ? error.message : String(error)}`,
      ),
    );
  }, []);

  if (who.admin)
    return h(
      'section',
      null,
      h('h1', null, 'Playground'),
      h('p', null, 'Scrapes are billed to a team: sign in with a team API key to use the playground.'),
    );

  const { body: request, problems } =
    form === null
      ? { body: { url: state.url.trim(), formats: state.formats }, problems: {} }
      : buildScrapeRequest(form, state);
  const invalid = Object.keys(problems).length > 0;
  const snippet = LANGUAGES[language].make(request, location.origin, readKey() ?? '');
  const pythonGaps = language === 'python' ? notInPythonSdk(request) : [];

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setProblem('');
    setResult(null);
    try {
      const body = await callJson<{ data: ScrapeDocument }>('/v2/scrape', { method: 'POST', body: request });
      setResult(body.data);
    } catch (err) {
      setProblem(err instanceof ApiCallError ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(snippet);
      setCopied(`Copied the ${LANGUAGES[language].name} code.`);
    } catch {
      setCopied('The browser did not allow copying: select the code and copy it.');
    }
  };

  return h(
    'section',
    { 'aria-labelledby': 'playground-title', class: 'playground' },
    h('h1', { id: 'playground-title' }, 'Playground'),
    h(
      'div',
      { class: 'side-by-side' },
      h(
        'form',
        { onSubmit: submit, class: 'scrape-form' },
        h('label', { for: 'scrape-url' }, 'URL'),
        h('input', {
          id: 'scrape-url',
          type: 'url',
          required: true,
          placeholder: 'https://example.com/',
          value: state.url,
          onInput: (event: Event) => {
            const url = inputValue(event);
            setState((current) => ({ ...current, url }));
          },
        }),
        form === null
          ? h(
              'p',
              { class: formProblem === '' ? 'hint' : 'error', role: 'status' },
              formProblem || 'Loading the options…',
            )
          : h(SchemaFormFields, { form, state, problems, onChange: setState }),
        h(
          'button',
          { type: 'submit', disabled: busy || form === null || invalid || state.formats.length === 0 },
          busy ? 'Scraping…' : 'Scrape',
        ),
      ),
      h(
        'div',
        { class: 'result', 'aria-live': 'polite', 'data-testid': 'playground-result' },
        h('h2', null, 'Result'),
        // A failed scrape's error is its result: shown where the result would be, not under the form.
        problem !== ''
          ? h('p', { class: 'error', role: 'alert' }, `The scrape failed: ${problem}`)
          : result === null
            ? h('p', { class: 'hint' }, busy ? 'Scraping…' : 'The result shows here.')
            : h(DocumentViewer, { document: result, idPrefix: 'playground' }),
      ),
    ),
    h(
      'section',
      { 'aria-labelledby': 'code-title', class: 'code' },
      h('h2', { id: 'code-title' }, 'The same request as code'),
      h(
        'div',
        { class: 'actions' },
        h('label', { for: 'code-language' }, 'Language'),
        h(
          'select',
          {
            id: 'code-language',
            value: language,
            onChange: (event: Event) =>
              setLanguage((event.currentTarget as HTMLSelectElement).value as Language),
          },
          (Object.keys(LANGUAGES) as Language[]).map((name) =>
            h('option', { value: name }, LANGUAGES[name].name),
          ),
        ),
        h('button', { type: 'button', onClick: () => void copy() }, `Copy as ${LANGUAGES[language].name}`),
        h('span', { role: 'status' }, copied),
      ),
      pythonGaps.length === 0
        ? null
        : h(
            'p',
            { class: 'hint' },
            `firecrawl-py has no keyword for ${pythonGaps.join(', ')}; the script leaves it out.`,
          ),
      h(
        'pre',
        { 'data-testid': 'snippet', tabIndex: 0, 'aria-label': `${LANGUAGES[language].name} code` },
        snippet,
      ),
    ),
  );
}
