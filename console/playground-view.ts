import { h } from 'preact';
import { useState } from 'preact/hooks';
import { ApiCallError, callJson, type WhoAmI } from './api';
import { curlSnippet, javascriptSnippet, pythonSnippet, type ScrapeRequest } from './code-snippets';
import type { ScrapeDocument } from './console-types';
import { DocumentViewer } from './document-viewer';
import { readKey } from './session-key';

const FORMATS = ['markdown', 'html', 'rawHtml', 'links', 'screenshot'] as const;
const NUMBERS = [
  ['waitFor', 'Wait after load (ms)'],
  ['timeout', 'Timeout (ms)'],
  ['maxAge', 'Accept a cached copy up to (ms old)'],
] as const;
const LANGUAGES = {
  curl: { name: 'curl', make: curlSnippet },
  javascript: { name: 'JavaScript SDK', make: javascriptSnippet },
  python: { name: 'Python SDK', make: pythonSnippet },
} as const;
type Language = keyof typeof LANGUAGES;

const inputValue = (event: Event) => (event.currentTarget as HTMLInputElement).value;
const checked = (event: Event) => (event.currentTarget as HTMLInputElement).checked;

/** A scrape as form fields, its result beside it, and the same request as code that runs unchanged. */
export function PlaygroundView({ who }: { who: WhoAmI }) {
  const [url, setUrl] = useState('');
  const [formats, setFormats] = useState<string[]>(['markdown']);
  const [onlyMainContent, setOnlyMainContent] = useState(true);
  const [mobile, setMobile] = useState(false);
  const [numbers, setNumbers] = useState<Record<string, string>>({});
  const [result, setResult] = useState<ScrapeDocument | null>(null);
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);
  const [language, setLanguage] = useState<Language>('curl');
  const [copied, setCopied] = useState('');

  if (who.admin)
    return h(
      'section',
      null,
      h('h1', null, 'Playground'),
      h('p', null, 'Scrapes are billed to a team: sign in with a team API key to use the playground.'),
    );

  const request: ScrapeRequest = {
    url: url.trim(),
    formats,
    ...(onlyMainContent ? {} : { onlyMainContent: false }),
    ...(mobile ? { mobile: true } : {}),
    ...Object.fromEntries(
      NUMBERS.filter(([name]) => (numbers[name] ?? '') !== '').map(([name]) => [name, Number(numbers[name])]),
    ),
  };
  const snippet = LANGUAGES[language].make(request, location.origin, readKey() ?? '');

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
  const toggleFormat = (format: string, on: boolean) =>
    setFormats((current) => (on ? [...current, format] : current.filter((name) => name !== format)));

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
          value: url,
          onInput: (event: Event) => setUrl(inputValue(event)),
        }),
        h(
          'fieldset',
          null,
          h('legend', null, 'Formats'),
          FORMATS.map((format) =>
            h(
              'label',
              { class: 'check' },
              h('input', {
                type: 'checkbox',
                name: 'format',
                value: format,
                checked: formats.includes(format),
                onChange: (event: Event) => toggleFormat(format, checked(event)),
              }),
              ` ${format}`,
            ),
          ),
        ),
        h(
          'fieldset',
          null,
          h('legend', null, 'Options'),
          h(
            'label',
            { class: 'check' },
            h('input', {
              type: 'checkbox',
              checked: onlyMainContent,
              onChange: (event: Event) => setOnlyMainContent(checked(event)),
            }),
            ' Main content only',
          ),
          h(
            'label',
            { class: 'check' },
            h('input', {
              type: 'checkbox',
              checked: mobile,
              onChange: (event: Event) => setMobile(checked(event)),
            }),
            ' Mobile',
          ),
          NUMBERS.map(([name, label]) => [
            h('label', { for: `option-${name}` }, label),
            h('input', {
              id: `option-${name}`,
              type: 'number',
              min: 0,
              value: numbers[name] ?? '',
              onInput: (event: Event) => setNumbers((current) => ({ ...current, [name]: inputValue(event) })),
            }),
          ]),
        ),
        h(
          'button',
          { type: 'submit', disabled: busy || formats.length === 0 },
          busy ? 'Scraping…' : 'Scrape',
        ),
        h('p', { class: 'error', role: 'alert' }, problem),
      ),
      h(
        'div',
        { class: 'result', 'aria-live': 'polite' },
        h('h2', null, 'Result'),
        result === null
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
      h(
        'pre',
        { 'data-testid': 'snippet', tabIndex: 0, 'aria-label': `${LANGUAGES[language].name} code` },
        snippet,
      ),
    ),
  );
}
