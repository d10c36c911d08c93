import { describe, expect, it } from 'vitest';
import { redactionSettings } from '../../../../shared/api/v2/redact-pii';
import { redactText } from '../../../../server/scrape/enrich/redact/redact-text';

const TEXT = 'Mail ada@example.com or call +44 20 7946 0958; card 4111 1111 1111 1111; password=hunter2.';

describe('text redaction', () => {
  it('writes a tag per entity by default', () => {
    expect(redactText(TEXT, redactionSettings(true)!)).toBe(
      'Mail <EMAIL> or call <PHONE>; card <FINANCIAL>; password=<SECRET>.',
    );
  });

  it('masks with as many stars as the span had characters, or removes it', () => {
    expect(redactText('ada@example.com!', redactionSettings({ replaceStyle: 'mask' })!)).toBe(
      `${'*'.repeat('ada@example.com'.length)}!`,
    );
    expect(redactText(TEXT, redactionSettings({ replaceStyle: 'remove' })!)).toBe(
      'Mail  or call ; card ; password=.',
    );
  });

  it('redacts only the entities asked for', () => {
    expect(redactText(TEXT, redactionSettings({ entities: ['EMAIL', 'SECRET'] })!)).toBe(
      'Mail <EMAIL> or call +44 20 7946 0958; card 4111 1111 1111 1111; password=<SECRET>.',
    );
  });

  it('escapes the tag in HTML, so that it shows as text instead of becoming an element', () => {
    const html = '<p><a href="mailto:ada@example.com">ada@example.com</a></p>';
    expect(redactText(html, redactionSettings(true)!, { html: true })).toBe(
      '<p><a href="mailto:&lt;EMAIL&gt;">&lt;EMAIL&gt;</a></p>',
    );
  });

  it('replaces the names it is given as whole words only', () => {
    const names = [
      { text: 'Ada Lovelace', entity: 'PERSON' as const },
      { text: 'Ann', entity: 'PERSON' as const },
      { text: 'London', entity: 'LOCATION' as const },
    ];
    expect(
      redactText('Ada Lovelace met Ann in London for the Annual dinner.', redactionSettings(true)!, {
        names,
      }),
    ).toBe('<PERSON> met <PERSON> in <LOCATION> for the Annual dinner.');
  });

  it('reads Markdown as written, so that its escapes cut no address or token in two', () => {
    const token = `ghp\\_${'Zx9'.repeat(12)}`;
    const markdown = `Mail john\\_doe@example.com, token ${token}, \\+44 20 7946 0958, C:\\Users kept`;
    expect(redactText(markdown, redactionSettings(true)!)).toBe(
      'Mail <EMAIL>, token <SECRET>, <PHONE>, C:\\Users kept',
    );
    expect(redactText('john\\_doe@example.com', redactionSettings({ replaceStyle: 'mask' })!)).toBe(
      '*'.repeat('john\\_doe@example.com'.length),
    );
  });
});
