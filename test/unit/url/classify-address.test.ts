import { describe, expect, it } from 'vitest';
import { classifyAddress } from '../../../shared/url/classify-address';

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8'],
    ['1.1.1.1'],
    ['172.15.255.255'],
    ['172.32.0.0'],
    ['2606:4700::1111'],
    ['2001:4860:4860::8888'],
  ])('calls %s public', (ip) => {
    expect(classifyAddress(ip)).toEqual({ kind: 'public' });
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['172.16.0.0', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.1.1', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['198.18.0.1', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fe80::1', 'linkLocal'],
    ['fec0::1', 'deprecatedSiteLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['100::1', 'discard'],
    ['2001:db8::1', 'reserved'],
    ['3fff::1', 'reserved'],
    ['5f00::1', 'segmentRouting'],
    ['::ffff:0:7f00:1', 'rfc6145'],
  ])('calls %s private (%s)', (ip, range) => {
    expect(classifyAddress(ip)).toEqual({ kind: 'private', range });
  });

  it('unmaps IPv4-mapped IPv6 in both spellings', () => {
    expect(classifyAddress('::ffff:127.0.0.1')).toEqual({ kind: 'private', range: 'loopback' });
    expect(classifyAddress('::ffff:7f00:1')).toEqual({ kind: 'private', range: 'loopback' });
    expect(classifyAddress('::ffff:808:808')).toEqual({ kind: 'public' });
  });

  it('refuses IPv6 outside 2000::/3 that ipaddr.js leaves unnamed, such as IPv4-compatible ::a.b.c.d', () => {
    expect(classifyAddress('::7f00:1')).toEqual({ kind: 'private', range: 'reserved' });
    expect(classifyAddress('::808:808')).toEqual({ kind: 'private', range: 'reserved' });
    expect(classifyAddress('4000::1')).toEqual({ kind: 'private', range: 'reserved' });
  });

  it.each([
    ['169.254.169.254'],
    ['169.254.170.2'],
    ['100.100.100.200'],
    ['168.63.129.16'],
    ['fd00:ec2::254'],
    ['fd00:0ec2:0000:0000:0000:0000:0000:0254'],
    ['fd20:ce::254'],
    ['::ffff:169.254.169.254'],
    ['::ffff:a9fe:a9fe'],
    ['fe80::a9fe:a9fe%eth0'],
  ])('calls %s metadata', (ip) => {
    expect(classifyAddress(ip)).toEqual({ kind: 'metadata' });
  });

  describe('NAT64', () => {
    it('judges the well-known prefix by the IPv4 address in its last 32 bits', () => {
      expect(classifyAddress('64:ff9b::808:808')).toEqual({ kind: 'public' });
      expect(classifyAddress('64:ff9b::127.0.0.1')).toEqual({
        kind: 'private',
        range: 'loopback',
        via: 'nat64',
      });
      expect(classifyAddress('64:ff9b::ac10:5')).toEqual({ kind: 'private', range: 'private', via: 'nat64' });
      expect(classifyAddress('64:ff9b::a9fe:a9fe')).toEqual({ kind: 'metadata', via: 'nat64' });
    });

    it('refuses the whole local-use prefix, where the IPv4 position is unknown', () => {
      expect(classifyAddress('64:ff9b:1::808:808')).toEqual({ kind: 'private', range: 'rfc6052' });
      expect(classifyAddress('64:ff9b:1:ffff::1')).toEqual({ kind: 'private', range: 'rfc6052' });
    });
  });

  describe('6to4', () => {
    it('judges by the router address in bits 16-47', () => {
      expect(classifyAddress('2002:808:808::1')).toEqual({ kind: 'public' });
      expect(classifyAddress('2002:7f00:1::1')).toEqual({ kind: 'private', range: 'loopback', via: '6to4' });
      expect(classifyAddress('2002:c0a8:101::')).toEqual({ kind: 'private', range: 'private', via: '6to4' });
      expect(classifyAddress('2002:a9fe:a9fe::1')).toEqual({ kind: 'metadata', via: '6to4' });
    });
  });

  describe('Teredo', () => {
    // Server 65.54.227.120 (4136:e378); the client address is stored inverted.
    it('allows only when both the server and the de-obfuscated client are public', () => {
      expect(classifyAddress('2001:0:4136:e378:8000:63bf:f7f7:f7f7')).toEqual({ kind: 'public' });
    });

    it('refuses a private client', () => {
      // ~80ff:fffe = 7f00:0001 = 127.0.0.1
      expect(classifyAddress('2001:0:4136:e378:8000:63bf:80ff:fffe')).toEqual({
        kind: 'private',
        range: 'loopback',
        via: 'teredo',
      });
      // RFC 4380's own example: the client is 192.0.2.45, a documentation address.
      expect(classifyAddress('2001:0:4136:e378:8000:63bf:3fff:fdd2')).toEqual({
        kind: 'private',
        range: 'reserved',
        via: 'teredo',
      });
    });

    it('refuses a private server', () => {
      expect(classifyAddress('2001:0:a00:1:8000:63bf:f7f7:f7f7')).toEqual({
        kind: 'private',
        range: 'private',
        via: 'teredo',
      });
    });
  });

  it.each([
    ['0x7f.1'],
    ['127.1'],
    ['2130706433'],
    ['127.000.000.001'],
    ['0177.0.0.1'],
    ['::ffff:0177.0.0.1'],
    ['[::1]'],
    [' 127.0.0.1'],
    ['localhost'],
    [''],
  ])('calls the non-canonical or non-address %j invalid', (ip) => {
    expect(classifyAddress(ip)).toEqual({ kind: 'invalid' });
  });
});
