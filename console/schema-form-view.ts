import { h } from 'preact';
import type { FormatChoice, FormField, FormState, ScrapeForm } from './schema-form';

/** The playground's generated inputs: formats, the common options, and "Advanced options" for the rest. */
export function SchemaFormFields({
  form,
  state,
  problems,
  onChange,
}: {
  form: ScrapeForm;
  state: FormState;
  problems: Record<string, string>;
  onChange: (update: (state: FormState) => FormState) => void;
}) {
  const input = (field: FormField) => fieldInput({ field, state, problem: problems[field.name], onChange });
  const basic = form.fields.filter((field) => !field.advanced);
  const advanced = form.fields.filter((field) => field.advanced);
  return [
    h(
      'fieldset',
      { class: 'formats' },
      h('legend', null, 'Formats'),
      h(
        'div',
        { class: 'checks' },
        form.formats.map((format) => formatCheckbox({ format, state, onChange })),
      ),
      form.formats
        .filter((format) => state.formats.includes(format.name) && format.optionNames.length > 0)
        .map((format) =>
          formatOptions({ format, state, problem: problems[`format:${format.name}`], onChange }),
        ),
    ),
    h('fieldset', null, h('legend', null, 'Options'), basic.map(input)),
    h(
      'details',
      { class: 'advanced' },
      h('summary', null, `Advanced options (${advanced.length})`),
      h('div', { class: 'fields' }, advanced.map(input)),
    ),
  ];
}

const valueOf = (event: Event) => (event.currentTarget as HTMLInputElement).value;
const checkedOf = (event: Event) => (event.currentTarget as HTMLInputElement).checked;

/** One checkbox per format name (a plain function: no hooks, so the caller renders it inline). */
function formatCheckbox({
  format,
  state,
  onChange,
}: {
  format: FormatChoice;
  state: FormState;
  onChange: (update: (state: FormState) => FormState) => void;
}) {
  return h(
    'label',
    { class: 'check', key: format.name },
    h('input', {
      type: 'checkbox',
      name: 'format',
      value: format.name,
      checked: state.formats.includes(format.name),
      onChange: (event: Event) => {
        const on = checkedOf(event);
        onChange((current) => ({
          ...current,
          formats: on
            ? [...current.formats, format.name]
            : current.formats.filter((name) => name !== format.name),
        }));
      },
    }),
    ` ${format.name}`,
  );
}

/** A format's object form, as JSON: its option names come from the schema, as a placeholder. */
function formatOptions({
  format,
  state,
  problem,
  onChange,
}: {
  format: FormatChoice;
  state: FormState;
  problem: string | undefined;
  onChange: (update: (state: FormState) => FormState) => void;
}) {
  const id = `format-options-${format.name}`;
  const required = format.requiredOptions.length > 0 ? ` Needs ${format.requiredOptions.join(', ')}.` : '';
  return h(
    'div',
    { class: 'field', key: id },
    h('label', { for: id }, `${format.name} options (JSON object)`),
    h('textarea', {
      id,
      rows: 2,
      spellcheck: false,
      placeholder: `{ ${format.optionNames.map((name) => `"${name}": …`).join(', ')} }`,
      value: state.formatOptions[format.name] ?? '',
      'aria-describedby': `${id}-help ${id}-problem`,
      'aria-invalid': problem === undefined ? 'false' : 'true',
      onInput: (event: Event) => {
        const text = valueOf(event);
        onChange((current) => ({
          ...current,
          formatOptions: { ...current.formatOptions, [format.name]: text },
        }));
      },
    }),
    h('small', { id: `${id}-help`, class: 'hint' }, `Options: ${format.optionNames.join(', ')}.${required}`),
    h('small', { id: `${id}-problem`, class: 'error' }, problem ?? ''),
  );
}

function fieldInput({
  field,
  state,
  problem,
  onChange,
}: {
  field: FormField;
  state: FormState;
  problem: string | undefined;
  onChange: (update: (state: FormState) => FormState) => void;
}) {
  const id = `option-${field.name}`;
  const entered = state.values[field.name];
  const set = (value: string | boolean) =>
    onChange((current) => ({ ...current, values: { ...current.values, [field.name]: value } }));
  const described = {
    'aria-describedby': `${id}-help ${id}-problem`,
    'aria-invalid': problem === undefined ? 'false' : 'true',
  };
  const help = [
    h('small', { id: `${id}-help`, class: 'hint' }, h('code', null, field.name), ` ${field.help}`),
    h('small', { id: `${id}-problem`, class: 'error' }, problem ?? ''),
  ];
  if (field.kind === 'boolean')
    return h(
      'div',
      { class: 'field', key: id },
      h(
        'label',
        { class: 'check', for: id },
        h('input', {
          id,
          type: 'checkbox',
          checked: typeof entered === 'boolean' ? entered : field.defaultValue === true,
          onChange: (event: Event) => set(checkedOf(event)),
          ...described,
        }),
        ` ${field.label}`,
      ),
      help,
    );
  const text = typeof entered === 'string' ? entered : '';
  const control =
    field.kind === 'enum'
      ? h(
          'select',
          { id, value: text, onChange: (event: Event) => set(valueOf(event)), ...described },
          h(
            'option',
            { value: '' },
            field.defaultValue === undefined ? '(not set)' : `(default: ${String(field.defaultValue)})`,
          ),
          field.choices.map((choice) => h('option', { value: choice }, choice)),
        )
      : field.kind === 'json'
        ? h('textarea', {
            id,
            rows: 3,
            spellcheck: false,
            placeholder: field.jsonType === 'array' ? '[ … ]' : field.jsonType === 'object' ? '{ … }' : '',
            value: text,
            onInput: (event: Event) => set(valueOf(event)),
            ...described,
          })
        : h('input', {
            id,
            type: field.kind === 'number' ? 'number' : 'text',
            ...(field.kind === 'number'
              ? { min: field.min, max: field.max, step: field.integer ? 1 : 'any', inputMode: 'numeric' }
              : {}),
            ...(field.kind === 'list' ? { placeholder: 'one, two' } : {}),
            value: text,
            onInput: (event: Event) => set(valueOf(event)),
            ...described,
          });
  return h('div', { class: 'field', key: id }, h('label', { for: id }, field.label), control, help);
}
