import { describe, expect, it } from 'vitest';
import { parseHtml } from '../../../shared/html/parse-html';

describe('parseHtml', () => {
  it('parses a whole document as written', () => {
    const document = parseHtml(
      '<!DOCTYPE html><html lang="en"><head><title>T</title></head><body><p>x</p></body></html>',
    );
    expect(document.documentElement.getAttribute('lang')).toBe('en');
    expect(document.head.querySelector('title')?.textContent).toBe('T');
    expect(document.body.innerHTML).toBe('<p>x</p>');
  });

  it('gives a fragment an html, head and body skeleton', () => {
    const document = parseHtml('<p>one</p><p>two</p>');
    expect(document.documentElement.localName).toBe('html');
    expect(document.head.childNodes).toHaveLength(0);
    expect(document.body.innerHTML).toBe('<p>one</p><p>two</p>');
  });

  it('moves content that sits outside <body> into it', () => {
    const document = parseHtml('<html><head><title>T</title></head><p>stray</p></html>');
    expect(document.head.innerHTML).toBe('<title>T</title>');
    expect(document.body.innerHTML).toBe('<p>stray</p>');
  });

  it('keeps head and body when only <html> is missing', () => {
    const document = parseHtml('<head><title>T</title></head><body><p>x</p></body>');
    expect(document.head.innerHTML).toBe('<title>T</title>');
    expect(document.body.innerHTML).toBe('<p>x</p>');
  });

  it('turns empty input and plain text into a document', () => {
    expect(parseHtml('').body.innerHTML).toBe('');
    expect(parseHtml('just text').body.textContent).toBe('just text');
  });

  it('reads a stray <![CDATA[ in the body as a browser does: a comment up to the next >', () => {
    const document = parseHtml('<body><![CDATA[\n<div id="top"></div><p>First post</p><p>Reply</p></body>');
    expect(document.body.textContent).toBe('First postReply');
  });
});
