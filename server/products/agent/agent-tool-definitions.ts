import type { ToolDefinition } from '../../platform/llm';
import { MAX_MAP_LINKS, MAX_SEARCH_RESULTS } from './agent-limits';

export type AgentToolName = 'search' | 'map' | 'scrape' | 'interact';

const url = { type: 'string', description: 'An absolute http(s) URL.' };

const DEFINITIONS: Record<AgentToolName, ToolDefinition> = {
  search: {
    name: 'search',
    description: 'Search the web. Returns result URLs with their titles and descriptions (not the pages).',
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What to search for.' },
        limit: { type: 'integer', minimum: 1, maximum: MAX_SEARCH_RESULTS, description: 'Results wanted.' },
      },
      required: ['query'],
    },
  },
  map: {
    name: 'map',
    description:
      'List the URLs of a website (its sitemap and links), optionally only those matching a search term.',
    parameters: {
      type: 'object',
      properties: {
        url,
        search: { type: 'string', description: 'Only URLs related to this term.' },
        limit: { type: 'integer', minimum: 1, maximum: MAX_MAP_LINKS },
      },
      required: ['url'],
    },
  },
  scrape: {
    name: 'scrape',
    description: 'Read one web page: returns its main content as Markdown.',
    parameters: { type: 'object', properties: { url }, required: ['url'] },
  },
  interact: {
    name: 'interact',
    description:
      'Open a page in a browser, run actions on it in order (click, write text into the focused field, ' +
      'press a key, wait, scroll), then return the page content as Markdown as it is after them.',
    parameters: {
      type: 'object',
      properties: {
        url,
        actions: {
          type: 'array',
          minItems: 1,
          maxItems: 10,
          items: {
            type: 'object',
            properties: {
              type: { type: 'string', enum: ['click', 'write', 'press', 'wait', 'scroll'] },
              selector: { type: 'string', description: 'CSS selector (click; wait for; scroll inside).' },
              text: { type: 'string', description: 'Text to type (write).' },
              key: { type: 'string', description: 'Key to press, e.g. Enter (press).' },
              milliseconds: {
                type: 'integer',
                minimum: 1,
                maximum: 10000,
                description: 'Time to wait (wait).',
              },
              direction: { type: 'string', enum: ['up', 'down'], description: 'scroll direction' },
            },
            required: ['type'],
          },
        },
      },
      required: ['url', 'actions'],
    },
  },
};

/** The tools of an agent run (all four) or a deep research run (no interact). */
export function agentToolDefinitions(flavor: 'agent' | 'research'): ToolDefinition[] {
  const names: AgentToolName[] =
    flavor === 'agent' ? ['search', 'map', 'scrape', 'interact'] : ['search', 'map', 'scrape'];
  return names.map((name) => DEFINITIONS[name]);
}
