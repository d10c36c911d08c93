import { readFileSync } from 'node:fs';

/**
 * A small reader of the Dockerfile instructions the image tests look at: enough of the syntax for
 * this repository's Dockerfile (continuations, comments, exec-form JSON, `KEY=value` ENV lists,
 * flags such as `--from`), not a general implementation.
 */

export interface Instruction {
  /** Upper case, e.g. `COPY`. */
  keyword: string;
  /** The text after the keyword, continuations joined. */
  args: string;
  /** 1-based line the instruction starts on. */
  line: number;
}

export interface Stage {
  name: string | undefined;
  base: string;
  instructions: Instruction[];
}

export interface CopyInstruction {
  from: string | undefined;
  sources: string[];
  destination: string;
}

/** What a container of the stage starts with: its command line, user and environment. */
export interface StageConfig {
  base: string;
  workdir: string;
  user: string | undefined;
  env: Record<string, string>;
  copies: CopyInstruction[];
  exposedPorts: string[];
  volumes: string[];
  entrypoint: string[];
  cmd: string[];
  /** The health check's command (after `CMD`), undefined without one. */
  healthcheck: string[] | undefined;
  runs: string[];
}

/** Splits a Dockerfile into instructions, dropping comments and joining `\` continuations. */
export function parseInstructions(text: string): Instruction[] {
  const instructions: Instruction[] = [];
  let pending: { parts: string[]; line: number } | undefined;
  text.split('\n').forEach((raw, index) => {
    const trimmed = raw.trim();
    // Comment lines are dropped wherever they are, inside a continued instruction too.
    if (trimmed.startsWith('#') || (trimmed === '' && pending === undefined)) return;
    const continued = trimmed.endsWith('\\');
    const part = continued ? trimmed.slice(0, -1).trim() : trimmed;
    pending =
      pending === undefined
        ? { parts: [part], line: index + 1 }
        : { ...pending, parts: [...pending.parts, part] };
    if (continued) return;
    const joined = pending.parts.filter((piece) => piece !== '').join(' ');
    const match = /^(\S+)\s*(.*)$/s.exec(joined);
    if (match !== null) {
      instructions.push({
        keyword: (match[1] as string).toUpperCase(),
        args: match[2] as string,
        line: pending.line,
      });
    }
    pending = undefined;
  });
  return instructions;
}

/** The instructions grouped by `FROM`. */
export function parseStages(text: string): Stage[] {
  const stages: Stage[] = [];
  for (const instruction of parseInstructions(text)) {
    if (instruction.keyword === 'FROM') {
      const match = /^(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?$/i.exec(instruction.args);
      if (match === null) throw new Error(`line ${instruction.line}: cannot read FROM ${instruction.args}`);
      stages.push({ name: match[2], base: match[1] as string, instructions: [] });
    } else {
      const stage = stages.at(-1);
      if (stage === undefined) {
        if (instruction.keyword === 'ARG') continue;
        throw new Error(`line ${instruction.line}: ${instruction.keyword} before FROM`);
      }
      stage.instructions.push(instruction);
    }
  }
  return stages;
}

/** Words of a shell-like argument list: whitespace-separated, with "…" and '…' quoting. */
function words(args: string): string[] {
  return [...args.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g)].map(
    (match) => match[1]?.replace(/\\(.)/g, '$1') ?? match[2] ?? (match[3] as string),
  );
}

/** Exec form (a JSON array) as is; shell form as Docker runs it, through `/bin/sh -c`. */
export function commandLine(args: string): string[] {
  if (args.trimStart().startsWith('[')) {
    const parsed: unknown = JSON.parse(args);
    if (!Array.isArray(parsed) || !parsed.every((word) => typeof word === 'string')) {
      throw new Error(`not an exec-form command: ${args}`);
    }
    return parsed;
  }
  return ['/bin/sh', '-c', args];
}

/** `ENV A=1 B="two words"`, or the old `ENV A value`. */
function envPairs(args: string): [string, string][] {
  const list = words(args);
  if (list.length === 0) return [];
  if (!(list[0] as string).includes('=')) return [[list[0] as string, list.slice(1).join(' ')]];
  return list.map((word) => {
    const at = word.indexOf('=');
    return [word.slice(0, at), word.slice(at + 1)];
  });
}

function copyOf(args: string): CopyInstruction {
  const list = words(args);
  let from: string | undefined;
  while (list[0]?.startsWith('--')) {
    const flag = list.shift() as string;
    if (flag.startsWith('--from=')) from = flag.slice('--from='.length);
  }
  const destination = list.pop();
  if (destination === undefined || list.length === 0) throw new Error(`COPY without a source: ${args}`);
  return { from, sources: list, destination };
}

/** A stage's resulting configuration, as `docker run` starts a container of it. */
export function stageConfig(stage: Stage): StageConfig {
  const config: StageConfig = {
    base: stage.base,
    workdir: '/',
    user: undefined,
    env: {},
    copies: [],
    exposedPorts: [],
    volumes: [],
    entrypoint: [],
    cmd: [],
    healthcheck: undefined,
    runs: [],
  };
  for (const { keyword, args } of stage.instructions) {
    switch (keyword) {
      case 'WORKDIR':
        config.workdir = args.startsWith('/') ? args : `${config.workdir.replace(/\/$/, '')}/${args}`;
        break;
      case 'USER':
        config.user = args;
        break;
      case 'ENV':
        for (const [name, value] of envPairs(args)) config.env[name] = value;
        break;
      case 'COPY':
        config.copies.push(copyOf(args));
        break;
      case 'EXPOSE':
        config.exposedPorts.push(...words(args));
        break;
      case 'VOLUME':
        config.volumes.push(...(args.startsWith('[') ? commandLine(args) : words(args)));
        break;
      case 'ENTRYPOINT':
        config.entrypoint = commandLine(args);
        // Docker resets an inherited CMD when the ENTRYPOINT changes.
        config.cmd = [];
        break;
      case 'CMD':
        config.cmd = commandLine(args);
        break;
      case 'HEALTHCHECK': {
        const at = args.search(/\bCMD\b/);
        config.healthcheck = at === -1 ? undefined : commandLine(args.slice(at + 3).trim());
        break;
      }
      case 'RUN':
        config.runs.push(args);
        break;
      default:
        break;
    }
  }
  return config;
}

/** The Dockerfile at `file`: its stages, and the configuration of the last (the image). */
export function readDockerfile(file: string) {
  const text = readFileSync(file, 'utf8');
  const stages = parseStages(text);
  const final = stages.at(-1);
  if (final === undefined) throw new Error(`${file} has no FROM`);
  return { text, stages, image: stageConfig(final) };
}
