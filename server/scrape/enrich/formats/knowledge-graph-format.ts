import { z } from 'zod';
import type {
  KnowledgeGraph,
  KnowledgeGraphEntity,
  KnowledgeGraphRelation,
} from '../../../../shared/api/responses/knowledge-graph';
import { completeJson, LlmError, type LlmProvider, MAX_PROMPT_CONTENT_CHARS } from '../../../platform/llm';
import type { StructuredItems } from '../../derive';

/**
 * The knowledgeGraph format (docs/llm-formats.md#knowledgegraph): the page's entities of the
 * requested types and the relations between them. Without a model they come from the schema.org
 * data the page publishes (JSON-LD, microdata, RDFa Lite): every typed object is an entity, and a
 * property whose value is another entity (or its `@id`) is a relation. With a model, it reads the
 * page for the entities its data leaves out; what the page's data states is kept as stated.
 */

const MAX_ENTITIES = 1_000;
const MAX_RELATIONS = 5_000;
const MAX_TEXT_CHARS = 1_000;
const MAX_VALUES_PER_PROPERTY = 20;

type JsonObject = Record<string, unknown>;
type Source = KnowledgeGraphEntity['source'];

/**
 * Broader types a caller may name, with the schema.org subtypes pages usually publish, so that
 * `Organization` finds a `Corporation` and `CreativeWork` a `NewsArticle`.
 */
const SUBTYPES: Record<string, readonly string[]> = {
  organization: [
    'corporation',
    'localbusiness',
    'ngo',
    'educationalorganization',
    'collegeoruniversity',
    'newsmediaorganization',
    'governmentorganization',
    'sportsteam',
    'sportsorganization',
    'airline',
    'restaurant',
    'store',
    'medicalorganization',
    'project',
  ],
  place: [
    'localbusiness',
    'restaurant',
    'store',
    'city',
    'country',
    'state',
    'administrativearea',
    'landmarksorhistoricalbuildings',
    'touristattraction',
  ],
  creativework: [
    'article',
    'newsarticle',
    'blogposting',
    'book',
    'movie',
    'musicrecording',
    'recipe',
    'webpage',
    'review',
    'report',
    'scholarlyarticle',
    'videoobject',
    'podcastepisode',
    'softwareapplication',
    'dataset',
  ],
  article: ['newsarticle', 'blogposting', 'scholarlyarticle', 'report', 'techarticle'],
  event: [
    'musicevent',
    'sportsevent',
    'businessevent',
    'educationevent',
    'festival',
    'theaterevent',
    'screeningevent',
    'exhibitionevent',
  ],
  product: ['individualproduct', 'productmodel', 'someproducts', 'vehicle', 'car', 'productgroup'],
  person: [],
};

const isObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const listOf = (value: unknown): unknown[] =>
  value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];

function typesOf(object: JsonObject): string[] {
  return listOf(object['@type'])
    .filter((type): type is string => typeof type === 'string')
    .flatMap((type) => type.split(/\s+/))
    .map((type) => type.replace(/^.*[/#:]/, ''))
    .filter((type) => type !== '');
}

function textOf(value: unknown): string | undefined {
  for (const item of listOf(value)) {
    if (typeof item === 'string' && item.trim() !== '')
      return item.replace(/\s+/g, ' ').trim().slice(0, MAX_TEXT_CHARS);
    if (typeof item === 'number' && Number.isFinite(item)) return String(item);
    if (isObject(item)) {
      const inner = textOf(item.name) ?? textOf(item['@value']);
      if (inner !== undefined) return inner;
    }
  }
  return undefined;
}

/** Whether an entity of `types` is of one of the requested types (or all, when none is asked). */
export function matchesTypes(types: readonly string[], requested: readonly string[] | undefined): boolean {
  if (requested === undefined || requested.length === 0) return true;
  const have = types.map((type) => type.toLowerCase());
  return requested.some((wanted) => {
    const key = wanted.toLowerCase().replace(/^.*[/#:]/, '');
    return have.includes(key) || (SUBTYPES[key] ?? []).some((sub) => have.includes(sub));
  });
}

interface GraphBuilder {
  entities: Map<string, KnowledgeGraphEntity & { types: string[] }>;
  relations: KnowledgeGraphRelation[];
  byName: Map<string, string>;
  next: number;
}

/** The broad type a type belongs to, so one name published as `Corporation` and `Organization` is one entity. */
function family(type: string): string {
  const key = type.toLowerCase();
  for (const broad of ['person', 'organization', 'event', 'product', 'creativework', 'place']) {
    if (key === broad || (SUBTYPES[broad] ?? []).includes(key)) return broad;
  }
  return key;
}

const nameKey = (type: string, name: string) => `${family(type)}|${name.toLowerCase()}`;

/** Adds a typed object (and the entities inside it) to the graph; its id, or undefined for an untyped object. */
function addEntity(
  graph: GraphBuilder,
  object: JsonObject,
  source: Source,
  depth: number,
): string | undefined {
  const types = typesOf(object);
  if (types.length === 0 || depth > 12 || graph.entities.size >= MAX_ENTITIES) return undefined;
  const type = types[0] as string;
  const name = textOf(object.name) ?? textOf(object.headline) ?? textOf(object.legalName);
  const givenId = typeof object['@id'] === 'string' ? object['@id'] : undefined;
  const url = typeof object.url === 'string' ? object.url : undefined;
  const known =
    (givenId !== undefined && graph.entities.has(givenId) ? givenId : undefined) ??
    (name === undefined ? undefined : graph.byName.get(nameKey(type, name)));
  const id = known ?? givenId ?? url ?? `_:e${++graph.next}`;
  let entity = graph.entities.get(id);
  if (entity === undefined) {
    entity = { id, type, ...(name === undefined ? {} : { name }), properties: {}, source, types };
    graph.entities.set(id, entity);
  }
  if (name !== undefined) graph.byName.set(nameKey(type, name), id);
  for (const [key, value] of Object.entries(object)) {
    if (key.startsWith('@') || key === 'name') continue;
    const plain: unknown[] = [];
    for (const item of listOf(value).slice(0, MAX_VALUES_PER_PROPERTY)) {
      if (isObject(item)) {
        const target =
          addEntity(graph, item, source, depth + 1) ??
          (typeof item['@id'] === 'string' && Object.keys(item).length === 1 ? item['@id'] : undefined);
        if (target !== undefined) {
          if (graph.relations.length < MAX_RELATIONS) graph.relations.push({ source: id, type: key, target });
        } else {
          const text = textOf(item);
          if (text !== undefined) plain.push(text);
        }
      } else if (typeof item === 'string' && item.trim() !== '') {
        plain.push(item.replace(/\s+/g, ' ').trim().slice(0, MAX_TEXT_CHARS));
      } else if (typeof item === 'number' || typeof item === 'boolean') {
        plain.push(item);
      }
    }
    if (plain.length > 0 && entity.properties[key] === undefined) {
      entity.properties[key] = plain.length === 1 ? plain[0] : plain;
    }
  }
  return id;
}

function newBuilder(): GraphBuilder {
  return { entities: new Map(), relations: [], byName: new Map(), next: 0 };
}

/** The graph of the requested types: entities that match, relations whose two ends both do. */
function finish(graph: GraphBuilder, entityTypes: readonly string[] | undefined): KnowledgeGraph {
  const kept = [...graph.entities.values()].filter((entity) => matchesTypes(entity.types, entityTypes));
  const ids = new Set(kept.map((entity) => entity.id));
  const seen = new Set<string>();
  const relations = graph.relations.filter((relation) => {
    const key = `${relation.source}\u0000${relation.type}\u0000${relation.target}`;
    if (
      !ids.has(relation.source) ||
      !ids.has(relation.target) ||
      relation.source === relation.target ||
      seen.has(key)
    ) {
      return false;
    }
    seen.add(key);
    return true;
  });
  return { entities: kept.map(({ types: _types, ...entity }) => entity), relations };
}

/** The graph the page's own schema.org data states, without a model. */
export function graphFromStructuredData(
  structured: StructuredItems | undefined,
  entityTypes: readonly string[] | undefined,
): KnowledgeGraph {
  const graph = newBuilder();
  addStructured(graph, structured);
  return finish(graph, entityTypes);
}

function addStructured(graph: GraphBuilder, structured: StructuredItems | undefined): void {
  if (structured === undefined) return;
  for (const item of structured.jsonLd) addEntity(graph, item, 'json-ld', 0);
  for (const item of structured.microdata) addEntity(graph, item, 'microdata', 0);
  for (const item of structured.rdfa) addEntity(graph, item, 'rdfa', 0);
}

const ModelGraph = z.object({
  entities: z
    .array(
      z.object({
        id: z.string().max(300).optional(),
        name: z.string().min(1).max(MAX_TEXT_CHARS),
        type: z.string().min(1).max(100),
        properties: z.record(z.string(), z.unknown()).optional(),
      }),
    )
    .max(MAX_ENTITIES),
  relations: z
    .array(
      z.object({
        source: z.string().max(MAX_TEXT_CHARS),
        type: z.string().min(1).max(100),
        target: z.string().max(MAX_TEXT_CHARS),
      }),
    )
    .max(MAX_RELATIONS)
    .default([]),
});

const SYSTEM_PROMPT =
  'You build knowledge graphs from web pages. Name only entities and relations the page states; invent nothing. ' +
  'Use schema.org type names (Person, Organization, Place, Event, Product, CreativeWork…) and schema.org property ' +
  'names for relations (author, worksFor, founder, location, memberOf, performer, manufacturer…). ' +
  'Answer with JSON only: {"entities":[{"id","name","type","properties"}],"relations":[{"source","type","target"}]}, ' +
  'where source and target are entity ids or names.';

/** Adds what the model reads on the page to the graph; the page's stated data wins where both name an entity. */
async function addFromModel(
  graph: GraphBuilder,
  llm: LlmProvider,
  {
    markdown,
    entityTypes,
    prompt,
  }: { markdown: string; entityTypes: readonly string[] | undefined; prompt: string | undefined },
): Promise<void> {
  const stated = [...graph.entities.values()].slice(0, 200).map(({ id, type, name }) => ({ id, type, name }));
  const task = [
    entityTypes === undefined || entityTypes.length === 0
      ? 'Entity types: any.'
      : `Entity types: ${entityTypes.join(', ')} (only these).`,
    prompt ?? '',
    stated.length === 0
      ? ''
      : `Entities the page's structured data already states (reuse their ids):\n${JSON.stringify(stated)}`,
    `Page content (Markdown):\n${markdown.slice(0, MAX_PROMPT_CONTENT_CHARS)}`,
  ]
    .filter((part) => part !== '')
    .join('\n\n');
  const answer = ModelGraph.safeParse(
    await completeJson(
      llm,
      [
        { role: 'system', content: SYSTEM_PROMPT },
        { role: 'user', content: task },
      ],
      undefined,
    ),
  );
  if (!answer.success) throw new LlmError('the answer was not a knowledge graph');
  const idOf = new Map<string, string>();
  for (const entity of graph.entities.values()) {
    idOf.set(entity.id, entity.id);
    if (entity.name !== undefined) idOf.set(entity.name.toLowerCase(), entity.id);
  }
  for (const entity of answer.data.entities) {
    if (graph.entities.size >= MAX_ENTITIES) break;
    const existing =
      graph.byName.get(nameKey(entity.type, entity.name)) ?? idOf.get(entity.name.toLowerCase());
    const id = existing ?? `model:${++graph.next}`;
    if (existing === undefined) {
      const properties = Object.fromEntries(
        Object.entries(entity.properties ?? {}).filter(
          ([, value]) => typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean',
        ),
      );
      graph.entities.set(id, {
        id,
        type: entity.type,
        name: entity.name,
        properties,
        source: 'model',
        types: [entity.type],
      });
      graph.byName.set(nameKey(entity.type, entity.name), id);
    }
    idOf.set(entity.name.toLowerCase(), id);
    if (entity.id !== undefined) idOf.set(entity.id, id);
  }
  for (const relation of answer.data.relations) {
    const source = idOf.get(relation.source) ?? idOf.get(relation.source.toLowerCase());
    const target = idOf.get(relation.target) ?? idOf.get(relation.target.toLowerCase());
    if (source !== undefined && target !== undefined && graph.relations.length < MAX_RELATIONS) {
      graph.relations.push({ source, type: relation.type, target });
    }
  }
}

export async function knowledgeGraphFormat({
  structured,
  markdown,
  entityTypes,
  prompt,
  llm,
}: {
  structured: StructuredItems | undefined;
  markdown: string;
  entityTypes: readonly string[] | undefined;
  prompt: string | undefined;
  llm: LlmProvider | undefined;
}): Promise<{ value: KnowledgeGraph; warning?: string }> {
  const graph = newBuilder();
  addStructured(graph, structured);
  let warning: string | undefined;
  if (llm !== undefined) {
    try {
      await addFromModel(graph, llm, { markdown, entityTypes, prompt });
    } catch (err) {
      if (!(err instanceof LlmError)) throw err;
      warning = `The model could not read the page's entities (${err.message}); knowledgeGraph has only what the page's schema.org data states.`;
    }
  }
  const value = finish(graph, entityTypes);
  if (value.entities.length === 0 && warning === undefined) {
    warning =
      llm === undefined
        ? 'The page publishes no schema.org data (JSON-LD, microdata, RDFa) with entities of the requested types, and no model is configured to read its text (LLM_BASE_URL).'
        : 'Neither the page nor the model named entities of the requested types.';
  }
  return warning === undefined ? { value } : { value, warning };
}
