import { describe, expect, it } from 'vitest';
import { detectPhones } from '../../../../server/scrape/enrich/redact/phone-detector';
import { found } from './found';

const phones = (text: string) => found(text, detectPhones);

describe('phone detection', () => {
  it.each([
    ['Call +1 (555) 010-4477 now', '+1 (555) 010-4477'],
    ['London office: +44 20 7946 0958.', '+44 20 7946 0958'],
    ['Paris +33 1 23 45 67 89', '+33 1 23 45 67 89'],
    ['Mobile +4915112345678', '+4915112345678'],
    ['Tokyo +81-3-1234-5678', '+81-3-1234-5678'],
    ['(555) 010-4477', '(555) 010-4477'],
    ['US 555-010-4477', '555-010-4477'],
    ['555.010.4477', '555.010.4477'],
    ['Toll-free 1-800-555-0199', '1-800-555-0199'],
    ['UK 020 7946 0958', '020 7946 0958'],
    ['UK mobile 07700 900123', '07700 900123'],
    ['Berlin 030 12345678', '030 12345678'],
    ['Lyon 04 72 12 34 56', '04 72 12 34 56'],
    ['<a href="tel:5550104477">call</a>', '5550104477'],
  ])('finds the number in %j', (text, number) => {
    expect(phones(text)).toEqual([number]);
  });

  it.each([
    ['Order 1234567890 shipped'],
    ['Released 2024-01-15 at 10:30'],
    ['Version v1.555.010.4477'],
    ['2+3456789012 is a sum'],
    ['Dated 01.02.2024'],
    ['Host 192.168.100.200'],
    ['ISBN 978-3-16-148410-0'],
    ['Total 1,234,567.89 EUR'],
    ['Timestamp 1700000000000'],
    ['Coordinates 12.34-5678.90'],
    ['SVG path M 123 456 L 789 012'],
  ])('leaves %j alone', (text) => {
    expect(phones(text)).toEqual([]);
  });

  it('takes bare ten-digit numbers for phones in the aggressive mode only', () => {
    expect(phones('ring 5552104477')).toEqual([]);
    expect(found('ring 5552104477', (t) => detectPhones(t, { aggressive: true }))).toEqual(['5552104477']);
  });
});
