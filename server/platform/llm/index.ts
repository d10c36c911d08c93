/**
 * The model provider (an OpenAI-compatible endpoint): chat completions, JSON answers within a schema,
 * tool calls.
 */
export { askForJson, completeJson, schemaInstruction } from './ask-for-json';
export { askForSummary } from './ask-for-summary';
export { LlmError, MAX_PROMPT_CONTENT_CHARS, createLlmProvider } from './llm-provider';
export type { ChatMessage, LlmProvider } from './llm-provider';
export { assistantTurn, createToolCallingLlm } from './llm-tool-calls';
export type { ToolCallingLlm, ToolChatMessage, ToolDefinition } from './llm-tool-calls';
export { MAX_SCHEMA_NODES, SchemaRejectedError, describeSchemaErrors, guardSchema } from './schema-guard';
export type { GuardedSchema } from './schema-guard';
export { isObject, resolveLocalRef } from './schema-ref';
