import { describe, expect, it } from 'vitest';
import { classifyHost } from '../../../shared/url/classify-host';

const classify = (url: string) => classifyHost(new URL(url));

describe('classifyHost', () => {
  it('classifies IPv4 literals after the URL parser has canonicalised them', () => {
    expect(classify('http://0x7f.1/')).toEqual({ kind: 'private', range: 'loopback' });
    expect(classify('http://8.8.8.8/')).toEqual({ kind: 'public' });
  });

  it('classifies bracketed IPv6 literals', () => {
    expect(classify('http://[::1]/')).toEqual({ kind: 'private', range: 'loopback' });
    expect(classify('http://[2606:4700::1111]/')).toEqual({ kind: 'public' });
  });

  it.each([
    ['http://localhost/'],
    ['http://localhost./'],
    ['http://localhost../'],
    ['http://LocalHost:8080/'],
    ['http://app.localhost/'],
    ['http://a.b.localhost./'],
    ['http://ｌｏｃａｌｈｏｓｔ/'],
  ])('calls %s localhost', (url) => {
    expect(classify(url)).toEqual({ kind: 'private', range: 'localhost' });
  });

  it.each([['http://intranet/'], ['http://intranet./'], ['http://wiki:8080/']])(
    'calls the single label %s private',
    (url) => {
      expect(classify(url)).toEqual({ kind: 'private', range: 'singleLabel' });
    },
  );

  it.each([
    ['http://printer.local/'],
    ['http://db.internal/'],
    ['http://router.home.arpa/'],
    ['http://nas.lan/'],
    ['http://localhost.localdomain/'],
    ['http://db.internal./'],
  ])('calls %s a local name', (url) => {
    expect(classify(url)).toEqual({ kind: 'private', range: 'localName' });
  });

  it.each([
    ['http://metadata.google.internal/'],
    ['http://metadata.google.internal./'],
    ['http://METADATA.google.internal/'],
    ['http://metadata/'],
  ])('calls %s metadata', (url) => {
    expect(classify(url)).toEqual({ kind: 'metadata' });
  });

  it.each([
    ['http://example.com/'],
    ['http://example.com./'],
    ['http://localhost.example.com/'],
    ['http://internal.example.com/'],
    ['http://127.0.0.1.nip.io/'],
    ['http://xn--bcher-kva.example/'],
  ])('leaves %s to DNS', (url) => {
    expect(classify(url)).toEqual({ kind: 'needs-dns' });
  });

  it('does not let opaque hosts of other schemes pass as names a resolver would read as IPv4', () => {
    expect(classify('gopher://0x7f.1/')).toEqual({ kind: 'invalid' });
    expect(classify('gopher://%31%32%37.0.0.1/')).toEqual({ kind: 'invalid' });
    expect(classify('gopher://127.0.0.1/')).toEqual({ kind: 'private', range: 'loopback' });
  });

  it('calls a missing host invalid', () => {
    expect(classify('file:///etc/passwd')).toEqual({ kind: 'invalid' });
  });
});
