/**
 * The knowledgeGraph format's answer: the page's entities of the requested types and the
 * relations between them (docs/llm-formats.md#knowledgegraph).
 */
export interface KnowledgeGraphEntity {
  /** The entity's `@id` or URL when the page gives one, else an id unique within this graph. */
  id: string;
  /** Its schema.org type name (`Person`, `Organization`, …), or the type the model gave. */
  type: string;
  name?: string;
  /** Its other plain properties (text, numbers, URLs), as the page states them. */
  properties: Record<string, unknown>;
  /** Where it was read: the page's JSON-LD, microdata or RDFa, or the model. */
  source: 'json-ld' | 'microdata' | 'rdfa' | 'model';
}

export interface KnowledgeGraphRelation {
  /** The id of the entity the relation starts from. */
  source: string;
  /** The property that links them (`author`, `worksFor`, `location`, …). */
  type: string;
  target: string;
}

export interface KnowledgeGraph {
  entities: KnowledgeGraphEntity[];
  relations: KnowledgeGraphRelation[];
}
