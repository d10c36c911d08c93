import { readFileSync } from 'node:fs';
import browserProtocol from 'devtools-protocol/json/browser_protocol.json' with { type: 'json' };
import jsProtocol from 'devtools-protocol/json/js_protocol.json' with { type: 'json' };
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  checkRelayCommand,
  RELAY_ALLOWED_METHODS,
  type RelayScope,
} from '../../../extension/sessions/cdp-relay-allowlist';
import { createRelayContexts } from '../../../extension/sessions/cdp-relay-contexts';
import { RELAY_METHODS } from '../../../extension/sessions/cdp-relay-methods';

/**
 * Every command of the DevTools protocol, with hostile parameters, through the relay's check:
 * only allowlisted methods with valid parameters pass, and what passes reaches no file, no
 * context the client was not given and no address but the web's.
 */

interface ProtocolParam {
  name: string;
  type?: string;
  $ref?: string;
  optional?: boolean;
}
interface ProtocolDomain {
  domain: string;
  types?: Array<{ id: string; type: string }>;
  commands: Array<{ name: string; parameters?: ProtocolParam[] }>;
}

const domains = [...browserProtocol.domains, ...jsProtocol.domains] as unknown as ProtocolDomain[];
const commands = new Map<string, { domain: string; parameters: ProtocolParam[] }>();
const typeKinds = new Map<string, string>();
for (const domain of domains) {
  for (const type of domain.types ?? []) typeKinds.set(`${domain.domain}.${type.id}`, type.type);
  for (const command of domain.commands) {
    commands.set(`${domain.domain}.${command.name}`, {
      domain: domain.domain,
      parameters: command.parameters ?? [],
    });
  }
}

const kindOf = (param: ProtocolParam, domain: string) => {
  if (param.type !== undefined) return param.type;
  const ref = param.$ref ?? '';
  return typeKinds.get(ref.includes('.') ? ref : `${domain}.${ref}`) ?? 'object';
};

/** A tab whose main world is context 1 and where the client created the world `client-world`. */
function scope(donated: boolean): RelayScope {
  const contexts = createRelayContexts();
  contexts.nameWorld('client-world');
  contexts.observe('Runtime.executionContextCreated', {
    context: {
      id: 1,
      uniqueId: 'main-unique',
      origin: 'https://a.example',
      name: '',
      auxData: { isDefault: true },
    },
  });
  contexts.observe('Runtime.executionContextCreated', {
    context: {
      id: 2,
      uniqueId: 'extension-unique',
      origin: 'chrome-extension://bldifabcdefghijklmnop',
      name: 'Tabhive',
      auxData: { isDefault: false, type: 'isolated' },
    },
  });
  return { donated, contexts };
}

const HUGE = 'x'.repeat(5 * 1024 * 1024);
const HOSTILE_URLS = [
  'file:///etc/passwd',
  'javascript:fetch("http://127.0.0.1/")',
  'chrome://settings',
  'chrome-extension://bldifabcdefghijklmnop/launch.json',
  'data:text/html,<script>1</script>',
];
const FOREIGN_CONTEXT = 2;
const NEVER_CREATED = 4242;

/** A hostile value for a protocol parameter: what an attacker would put there. */
function hostile(param: ProtocolParam, domain: string, variant: number): unknown {
  const name = param.name;
  if (/^(contextId|executionContextId)$/.test(name))
    return variant % 2 === 0 ? FOREIGN_CONTEXT : NEVER_CREATED;
  if (/objectId$/i.test(name)) return `-1.${variant % 2 === 0 ? FOREIGN_CONTEXT : NEVER_CREATED}.1`;
  if (name === 'uniqueContextId') return 'extension-unique';
  if (name === 'executionContextName') return 'Tabhive';
  if (name === 'grantUniveralAccess') return true;
  if (name === 'files' || name === 'filePath' || name === 'path') return ['/etc/passwd'];
  if (name === 'data') return { items: [], files: ['/etc/passwd', '/tmp'], dragOperationsMask: 1 };
  switch (kindOf(param, domain)) {
    case 'string':
      return variant === 4 ? HUGE : (HOSTILE_URLS[variant % HOSTILE_URLS.length] ?? '');
    case 'integer':
    case 'number':
      return NEVER_CREATED;
    case 'boolean':
      return true;
    case 'array':
      return ['/etc/passwd', { objectId: `-1.${FOREIGN_CONTEXT}.1` }];
    default:
      return { files: ['/etc/passwd'], contextId: FOREIGN_CONTEXT, url: 'file:///etc/passwd' };
  }
}

/** Whether what the check let through is harmless: the properties the fuzzer tried to abuse. */
function harmless(value: unknown, key = ''): boolean {
  if (key === 'files') return Array.isArray(value) && value.length === 0;
  if (key === 'grantUniveralAccess') return value === false;
  if ((key === 'contextId' || key === 'executionContextId') && value !== 1) return false;
  if (/objectId$/i.test(key) && typeof value === 'string' && value.split('.')[1] !== '1') return false;
  if ((key === 'url' || key === 'referrer') && typeof value === 'string') {
    return value === 'about:blank' || /^https?:\/\//.test(value);
  }
  if (typeof value === 'string') return value.length < HUGE.length;
  if (Array.isArray(value)) return value.every((item) => harmless(item));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).every(([name, item]) => harmless(item, name));
  }
  return true;
}

interface Def {
  type: string;
  innerType?: z.ZodType;
  options?: readonly unknown[];
  values?: readonly unknown[];
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
}
const defOf = (schema: z.ZodType) => (schema as unknown as { def: Def }).def;

/** A valid value for a schema, with the names a client would use for references it may reach. */
function sample(schema: z.ZodType, name: string): unknown {
  const def = defOf(schema);
  if (name === 'url' || name === 'referrer') return 'https://a.example/';
  if (/objectId$/i.test(name)) return '-1.1.1';
  if (name === 'contextId' || name === 'executionContextId') return 1;
  if (name === 'uniqueContextId') return 'main-unique';
  if (name === 'executionContextName' || name === 'worldName') return 'client-world';
  switch (def.type) {
    case 'optional':
      return sample(def.innerType as z.ZodType, name);
    case 'string':
      return 'a';
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'enum':
      return (schema as unknown as { options: unknown[] }).options[0];
    case 'literal':
      return def.values?.[0];
    case 'array':
      return [];
    case 'record':
      return {};
    case 'object':
      return Object.fromEntries(
        Object.entries(def.shape ?? {}).map(([key, inner]) => [key, sample(inner, key)]),
      );
    default:
      return undefined;
  }
}

const validParams = (method: string) =>
  sample(RELAY_METHODS.get(method)?.params as z.ZodType, '') as Record<string, unknown>;

/** A value of another type than `value`'s. */
const wrongType = (value: unknown): unknown =>
  typeof value === 'string'
    ? 12
    : typeof value === 'number'
      ? '12'
      : typeof value === 'boolean'
        ? 'true'
        : 'x';

describe('the relay check against the whole DevTools protocol', () => {
  it('knows every allowlisted method from the protocol, with parameters the protocol names', () => {
    expect(commands.size).toBeGreaterThan(500);
    for (const method of RELAY_ALLOWED_METHODS) {
      const command = commands.get(method);
      expect(command, method).toBeDefined();
      const shape = defOf(RELAY_METHODS.get(method)?.params as z.ZodType).shape ?? {};
      const known = new Set(command?.parameters.map((param) => param.name));
      for (const key of Object.keys(shape)) expect(known.has(key), `${method} ${key}`).toBe(true);
    }
  });

  for (const donated of [false, true]) {
    it(`refuses every other method, and hostile parameters of the allowed ones (${donated ? 'donated' : 'launched'})`, () => {
      const allowed = new Set(RELAY_ALLOWED_METHODS);
      let passed = 0;
      for (const [method, { domain, parameters }] of commands) {
        const attempts: unknown[] = [undefined, {}];
        for (let variant = 0; variant < 6; variant += 1) {
          attempts.push(
            Object.fromEntries(parameters.map((param) => [param.name, hostile(param, domain, variant)])),
          );
          attempts.push(
            Object.fromEntries(
              parameters
                .filter((param) => !param.optional)
                .map((param) => [param.name, hostile(param, domain, variant)]),
            ),
          );
        }
        for (const params of attempts) {
          const verdict = checkRelayCommand(method, params, scope(donated));
          if (!allowed.has(method)) {
            expect(verdict.ok, method).toBe(false);
            if (!verdict.ok) expect(verdict.reason.startsWith(`${method} is not available`)).toBe(true);
            continue;
          }
          if (verdict.ok) {
            passed += 1;
            expect(
              harmless(verdict.params),
              `${method} ${JSON.stringify(verdict.params).slice(0, 300)}`,
            ).toBe(true);
          }
        }
      }
      // Methods without parameters pass with `{}`: the fuzzer did reach the allowed side.
      expect(passed).toBeGreaterThan(0);
    });
  }

  it('passes each allowlisted method with valid parameters, and refuses any extra, mistyped or oversized one', () => {
    const launched = scope(false);
    for (const method of RELAY_ALLOWED_METHODS) {
      const valid = validParams(method);
      const verdict = checkRelayCommand(method, valid, launched);
      expect(verdict.ok ? undefined : verdict.reason, method).toBeUndefined();
      expect(checkRelayCommand(method, { ...valid, __proto_extra: 1 }, launched).ok, `${method} extra`).toBe(
        false,
      );
      expect(checkRelayCommand(method, 'not-an-object', launched).ok, `${method} string`).toBe(false);
      // One hostile parameter at a time among valid ones: refused, or let through harmless.
      const command = commands.get(method);
      for (const param of command?.parameters ?? []) {
        for (let variant = 0; variant < 6; variant += 1) {
          const attempt = { ...valid, [param.name]: hostile(param, command?.domain ?? '', variant) };
          const verdict = checkRelayCommand(method, attempt, launched);
          if (verdict.ok) expect(harmless(verdict.params), `${method} ${param.name} #${variant}`).toBe(true);
        }
      }
      for (const [key, value] of Object.entries(valid)) {
        const mistyped = checkRelayCommand(method, { ...valid, [key]: wrongType(value) }, launched);
        expect(mistyped.ok, `${method} ${key} mistyped`).toBe(false);
        if (typeof value === 'string') {
          expect(
            checkRelayCommand(method, { ...valid, [key]: HUGE }, launched).ok,
            `${method} ${key} huge`,
          ).toBe(false);
        }
        if (key === 'contextId' || key === 'executionContextId') {
          for (const id of [FOREIGN_CONTEXT, NEVER_CREATED]) {
            expect(
              checkRelayCommand(method, { ...valid, [key]: id }, launched).ok,
              `${method} ${key}=${id}`,
            ).toBe(false);
          }
        }
        if (/objectId$/i.test(key)) {
          expect(
            checkRelayCommand(method, { ...valid, [key]: '-1.2.5' }, launched).ok,
            `${method} ${key}`,
          ).toBe(false);
        }
        if (key === 'url') {
          for (const url of HOSTILE_URLS) {
            expect(checkRelayCommand(method, { ...valid, url }, launched).ok, `${method} ${url}`).toBe(false);
          }
        }
      }
    }
  });

  it('names every allowlisted method in docs/cdp-relay-allowlist.md, and no other as allowed', () => {
    const doc = readFileSync(new URL('../../../docs/cdp-relay-allowlist.md', import.meta.url), 'utf8');
    const allowedSection = doc.slice(doc.indexOf('## Allowed methods'), doc.indexOf('## Refused'));
    const documented = new Set(
      [...allowedSection.matchAll(/^\| `([A-Za-z]+\.[A-Za-z]+)`/gm)].map((match) => match[1]),
    );
    expect([...documented].sort()).toEqual([...RELAY_ALLOWED_METHODS].sort());
  });
});

describe("the other ways a caller's commands reach a tab", () => {
  it('send no method that reads files, reaches other worlds or other targets', async () => {
    const { ALLOWED_CDP_METHODS } = await import('../../../extension/debugger/cdp-allowlist');
    const { DIRECT_METHODS } = await import('../../../extension/sessions/cdp-direct');
    const forbidden =
      /^(DOM\.setFileInputFiles|DOM\.getFileInfo|Input\.dispatchDragEvent|Page\.setDownloadBehavior|Browser\.|Target\.|Debugger\.|IO\.|Extensions\.|Network\.getAllCookies|Network\.loadNetworkResource)/;
    expect([...ALLOWED_CDP_METHODS].filter((method) => forbidden.test(method))).toEqual([]);
    // The live view's own way to the tab: the relay's allowlist (Input.dispatchDragEvent only
    // without files, checked there) and its screencast.
    expect([...DIRECT_METHODS].filter((method) => forbidden.test(method))).toEqual([
      'Input.dispatchDragEvent',
    ]);
  });
});
