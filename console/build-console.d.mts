/** Types of build-console.mjs, for the TypeScript that imports it (the console's end-to-end test). */
export declare const CONSOLE_OUT_DIR: string;
export declare function buildConsole(options?: { outDir?: string }): Promise<string>;
