import { describe, expect, it } from 'vitest';
import { abaRoutingValid, ibanValid, luhnValid } from '../../../../server/scrape/enrich/redact/checksums';
import { detectFinancial } from '../../../../server/scrape/enrich/redact/financial-detector';
import { found } from './found';

const financial = (text: string) => found(text, detectFinancial);

describe('financial detection', () => {
  it('checks Luhn, IBAN mod 97 and ABA routing digits', () => {
    expect([luhnValid('4111111111111111'), luhnValid('4111111111111112')]).toEqual([true, false]);
    expect([ibanValid('DE89370400440532013000'), ibanValid('DE89370400440532013001')]).toEqual([true, false]);
    expect(ibanValid('DE8937040044053201300')).toBe(false);
    expect([abaRoutingValid('021000021'), abaRoutingValid('021000022')]).toEqual([true, false]);
  });

  it.each([
    ['Visa 4111 1111 1111 1111 exp 12/29', '4111 1111 1111 1111'],
    ['card: 4111-1111-1111-1111', '4111-1111-1111-1111'],
    ['pan=5555555555554444;', '5555555555554444'],
    ['Amex 3782 822463 10005', '3782 822463 10005'],
    ['Order 12345 4111 1111 1111 1111', '4111 1111 1111 1111'],
    ['IBAN DE89 3704 0044 0532 0130 00', 'DE89 3704 0044 0532 0130 00'],
    ['iban: DE89370400440532013000.', 'DE89370400440532013000'],
    ['GB82 WEST 1234 5698 7654 32 USD', 'GB82 WEST 1234 5698 7654 32'],
    ['Routing number: 021000021', '021000021'],
    ['Account number: 12345678', '12345678'],
    ['Acct. no 0001-2345-6789', '0001-2345-6789'],
  ])('finds the number in %j', (text, number) => {
    expect(financial(text)).toEqual([number]);
  });

  it.each([
    ['Test card 4111 1111 1111 1112 fails Luhn'],
    ['Tracking 1234567812345678'],
    ['Timestamp 1700000000000'],
    ['IBAN DE89 3704 0044 0532 0130 01 (a typo)'],
    ['Routing number: 021000022'],
    ['The account was opened in 2024'],
    ['Phone +1 555 010 4477'],
    ['Grouped oddly 4111 11111 111 1111'],
    ['Product id 41890740371567 (Luhn-valid, but no Visa has 14 digits)'],
    ['Variant 26015087263818 (a Mastercard prefix, 14 digits)'],
  ])('leaves %j alone', (text) => {
    expect(financial(text)).toEqual([]);
  });
});
