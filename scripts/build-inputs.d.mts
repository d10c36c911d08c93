/** Types of build-inputs.mjs, for the TypeScript that imports it (its unit test). */

/** A build: what it reads, what it writes, and where the record of its last run is kept (paths relative to root). */
export interface BuildDescription {
  name: string;
  root: string;
  record: string;
  outputs: string[];
  folders: string[];
  files: string[];
}

/** A file's content hash, size and time; null for a file that was missing. */
export type InputDescription = { sha256: string; size: number; mtimeMs: number } | null;

export declare const ROOT: string;
export declare const EXTENSION_BUILD: BuildDescription;
export declare const SERVER_BUILD: BuildDescription;
export declare function listInputs(
  root: string,
  inputs: { folders?: string[]; files?: string[] },
): Promise<string[]>;
export declare function hashInputs(root: string, files: string[]): Promise<Record<string, InputDescription>>;
export declare function hashBuildInputs(
  build: BuildDescription,
  more?: string[],
): Promise<Record<string, InputDescription>>;
export declare function writeBuildRecord(
  build: BuildDescription,
  inputs: Record<string, InputDescription>,
): Promise<void>;
export declare function outdatedBecause(build: BuildDescription): Promise<string | undefined>;
