import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FormatsV2 } from '../../../../shared/api/v2/formats';
import { parseHtml } from '../../../../shared/html/parse-html';
import { createLlmProvider } from '../../../../server/platform/llm';
import { readPage } from '../../../../server/scrape/derive/formats/page-reads';
import {
  graphFromStructuredData,
  knowledgeGraphFormat,
} from '../../../../server/scrape/enrich/formats/knowledge-graph-format';
import { startFakeLlmServer } from '../../../helpers/fake-llm-server';

const PAGE = `<!doctype html><html><head>
<script type="application/ld+json">
{"@context":"https://schema.org","@graph":[
  {"@type":"NewsArticle","@id":"#article","headline":"Hive opens a second bakery","datePublished":"2026-03-02",
   "author":{"@type":"Person","@id":"#ana","name":"Ana Ruiz","jobTitle":"Reporter","worksFor":{"@id":"#paper"}},
   "publisher":{"@id":"#paper"},"about":{"@type":"Corporation","name":"Hive Bakeries","founder":{"@type":"Person","name":"Tom Berg"}}},
  {"@type":"NewsMediaOrganization","@id":"#paper","name":"Lyon Daily","url":"https://daily.example"}
]}
</script></head><body>
<div itemscope itemtype="https://schema.org/Event"><span itemprop="name">Opening day</span>
  <div itemprop="location" itemscope itemtype="https://schema.org/Place"><span itemprop="name">Rue Mercière 4</span></div></div>
<div vocab="https://schema.org/" typeof="Person" resource="#chef"><span property="name">Lea Moreau</span>
  <span property="jobTitle">Head baker</span>
  <div property="worksFor" typeof="Organization"><span property="name">Hive Bakeries</span></div></div>
<meta property="og:title" content="not an item">
</body></html>`;

const structured = readPage(parseHtml(PAGE), 'https://daily.example/hive', { structured: true }).structured;

describe('knowledgeGraph from schema.org data', () => {
  it('reads JSON-LD, microdata and RDFa Lite items', () => {
    expect(structured?.jsonLd).toHaveLength(2);
    expect(structured?.microdata.map((item) => item['@type'])).toEqual(['Event']);
    expect(structured?.rdfa).toEqual([
      {
        '@type': 'Person',
        '@id': '#chef',
        name: 'Lea Moreau',
        jobTitle: 'Head baker',
        worksFor: { '@type': 'Organization', name: 'Hive Bakeries' },
      },
    ]);
  });

  it('answers entities of the requested types, subtypes included, and the relations between them', () => {
    const graph = graphFromStructuredData(structured, ['Person', 'Organization']);
    const names = graph.entities.map((entity) => `${entity.type}:${entity.name} (${entity.source})`);
    expect(names).toEqual([
      'Person:Ana Ruiz (json-ld)',
      'Corporation:Hive Bakeries (json-ld)',
      'Person:Tom Berg (json-ld)',
      'NewsMediaOrganization:Lyon Daily (json-ld)',
      'Person:Lea Moreau (rdfa)',
    ]);
    const byId = new Map(graph.entities.map((entity) => [entity.id, entity.name]));
    const relations = graph.relations.map((r) => `${byId.get(r.source)} -${r.type}-> ${byId.get(r.target)}`);
    // The RDFa Organization named Hive Bakeries is the JSON-LD Corporation of that name.
    expect(relations).toEqual([
      'Ana Ruiz -worksFor-> Lyon Daily',
      'Hive Bakeries -founder-> Tom Berg',
      'Lea Moreau -worksFor-> Hive Bakeries',
    ]);
    expect(graph.entities.find((entity) => entity.name === 'Ana Ruiz')?.properties).toEqual({
      jobTitle: 'Reporter',
    });
    // The article is not a requested type, so its author and publisher relations are left out.
    expect(relations.some((relation) => relation.includes('author'))).toBe(false);
  });

  it('answers every entity when no type is asked, with relations through @id references', () => {
    const graph = graphFromStructuredData(structured, undefined);
    const article = graph.entities.find((entity) => entity.type === 'NewsArticle');
    expect(article).toMatchObject({
      id: '#article',
      name: 'Hive opens a second bakery',
      properties: { datePublished: '2026-03-02' },
    });
    expect(graph.relations).toContainEqual({ source: '#article', type: 'publisher', target: '#paper' });
    expect(graph.relations).toContainEqual({ source: '#article', type: 'author', target: '#ana' });
    const event = graph.entities.find((entity) => entity.type === 'Event');
    const place = graph.entities.find((entity) => entity.type === 'Place');
    expect(graph.relations).toContainEqual({ source: event?.id, type: 'location', target: place?.id });
  });

  it('warns, without a model, when the page states nothing of those types', async () => {
    const result = await knowledgeGraphFormat({
      structured,
      markdown: '',
      entityTypes: ['Drug'],
      prompt: undefined,
      llm: undefined,
    });
    expect(result.value).toEqual({ entities: [], relations: [] });
    expect(result.warning).toMatch(/no schema\.org data/);
  });

  it('is a format of its own: one per request, entityTypes a list of names', () => {
    expect(FormatsV2.parse([{ type: 'knowledgeGraph', entityTypes: ['Person'] }])).toEqual([
      { type: 'knowledgeGraph', entityTypes: ['Person'] },
    ]);
    expect(FormatsV2.safeParse([{ type: 'knowledgeGraph', entityTypes: 'Person' }]).success).toBe(false);
    expect(FormatsV2.safeParse(['knowledgeGraph', 'knowledgeGraph']).success).toBe(false);
  });
});

describe('knowledgeGraph with a model', () => {
  let llmServer: Awaited<ReturnType<typeof startFakeLlmServer>>;
  beforeAll(async () => {
    llmServer = await startFakeLlmServer();
  });
  afterAll(() => llmServer.close());

  it('adds what the model reads in the text to what the page states, linked by name or id', async () => {
    llmServer.answer(
      JSON.stringify({
        entities: [
          { id: '#ana', name: 'Ana Ruiz', type: 'Person' },
          { name: 'Marc Petit', type: 'Person', properties: { jobTitle: 'Mayor', nested: { no: 1 } } },
          { name: 'City of Lyon', type: 'GovernmentOrganization' },
        ],
        relations: [
          { source: 'Marc Petit', type: 'worksFor', target: 'City of Lyon' },
          { source: '#ana', type: 'knows', target: 'marc petit' },
          { source: 'Nobody', type: 'knows', target: 'Marc Petit' },
        ],
      }),
    );
    const result = await knowledgeGraphFormat({
      structured,
      markdown: 'Mayor Marc Petit of the City of Lyon cut the ribbon, Ana Ruiz reports.',
      entityTypes: ['Person', 'Organization'],
      prompt: undefined,
      llm: createLlmProvider({ baseUrl: llmServer.baseUrl }),
    });
    expect(result.warning).toBeUndefined();
    const marc = result.value.entities.find((entity) => entity.name === 'Marc Petit');
    expect(marc).toMatchObject({ type: 'Person', source: 'model', properties: { jobTitle: 'Mayor' } });
    const lyon = result.value.entities.find((entity) => entity.name === 'City of Lyon');
    expect(result.value.relations).toContainEqual({ source: marc?.id, type: 'worksFor', target: lyon?.id });
    expect(result.value.relations).toContainEqual({ source: '#ana', type: 'knows', target: marc?.id });
    // Ana Ruiz is the page's own entity, not a second one from the model.
    expect(result.value.entities.filter((entity) => entity.name === 'Ana Ruiz')).toEqual([
      expect.objectContaining({ id: '#ana', source: 'json-ld' }),
    ]);
    const asked = llmServer.requests[0]?.body.messages[1]?.content ?? '';
    expect(asked).toContain('Entity types: Person, Organization (only these).');
    expect(asked).toContain('"id":"#ana"');
  });

  it('keeps the stated graph, with a warning, when the model fails', async () => {
    llmServer.answer('not json', 'still not json');
    const result = await knowledgeGraphFormat({
      structured,
      markdown: 'text',
      entityTypes: ['Person'],
      prompt: undefined,
      llm: createLlmProvider({ baseUrl: llmServer.baseUrl }),
    });
    expect(result.value.entities.map((entity) => entity.name)).toContain('Ana Ruiz');
    expect(result.warning).toMatch(/could not read the page's entities/);
  });
});
