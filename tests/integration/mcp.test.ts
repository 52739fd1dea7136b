import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createItem, createMatch, createMonitor } from '../support/factories.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

// The MCP server driven by the SDK's own client over Streamable HTTP, with API keys.
describe('MCP server', () => {
  let app: TestApp;
  let token: string;
  let userId: string;
  const clients: Client[] = [];
  beforeAll(async () => {
    app = await startTestApp();
    const user = await app.signedInUser();
    token = user.token;
    userId = user.sub;
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await app.close();
  });

  async function keyOf(scope: 'read' | 'write') {
    const response = await app.api('/api/api-keys', {
      token,
      method: 'POST',
      body: { name: `mcp ${scope}`, scope },
    });
    return ((await response.json()) as { key: string }).key;
  }

  async function connect(key: string) {
    const client = new Client({ name: 'earshot-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${key}` } },
      }),
    );
    clients.push(client);
    return client;
  }

  const textOf = (result: unknown) =>
    ((result as { content: Array<{ text: string }> }).content[0] ?? { text: '' }).text;

  test('initialize, tools/list, and every tool with a write key', async () => {
    const client = await connect(await keyOf('write'));
    expect(client.getServerVersion()?.name).toBe('earshot');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'create_monitor',
      'get_match',
      'list_monitors',
      'mark_read',
      'pause_monitor',
      'preview_query',
      'rate_match',
      'search_matches',
    ]);
    const create = tools.find((tool) => tool.name === 'create_monitor');
    expect(create?.inputSchema.properties).toHaveProperty('query');

    const created = await client.callTool({
      name: 'create_monitor',
      arguments: { query: 'postgres', name: 'Databases' },
    });
    expect(created.isError).toBeFalsy();
    const monitor = JSON.parse(textOf(created)) as { id: string; query: string; paused: boolean };
    expect(monitor).toMatchObject({ query: 'postgres', paused: false });

    const listed = JSON.parse(textOf(await client.callTool({ name: 'list_monitors' })));
    expect(listed).toEqual([expect.objectContaining({ id: monitor.id, name: 'Databases' })]);

    const paused = await client.callTool({
      name: 'pause_monitor',
      arguments: { monitorId: monitor.id },
    });
    expect(JSON.parse(textOf(paused))).toMatchObject({ id: monitor.id, paused: true });

    const row = await createMonitor(app.database.db, { userId });
    const item = await createItem(app.database.db);
    await createMatch(app.database.db, { monitor: row, item });
    const found = JSON.parse(
      textOf(
        await client.callTool({
          name: 'search_matches',
          arguments: { monitorId: row.id, unread: 'true', limit: 5 },
        }),
      ),
    ) as { items: Array<{ id: string; title: string }> };
    expect(found.items.map((match) => match.title)).toEqual([item.title]);
    const one = await client.callTool({ name: 'get_match', arguments: { id: found.items[0]?.id } });
    expect(JSON.parse(textOf(one))).toEqual(found.items[0]);
    const missing = await client.callTool({ name: 'get_match', arguments: { id: '999999999' } });
    expect(missing.isError).toBe(true);

    const marked = await client.callTool({ name: 'mark_read', arguments: { monitorId: row.id } });
    expect(JSON.parse(textOf(marked))).toEqual({ updated: 1 });

    const rated = await client.callTool({
      name: 'rate_match',
      arguments: { id: found.items[0]?.id, rating: 'relevant' },
    });
    expect(JSON.parse(textOf(rated))).toMatchObject({ id: found.items[0]?.id, rating: 'relevant' });

    const preview = await client.callTool({
      name: 'preview_query',
      arguments: { query: item.title ?? '' },
    });
    expect(preview.isError).toBeFalsy();
    expect(JSON.parse(textOf(preview))).toHaveProperty('perDay');
  });

  test('a bad argument answers the validation message of the REST route', async () => {
    const client = await connect(await keyOf('read'));
    const rest = await app.api('/api/matches/mark-read', {
      token,
      method: 'POST',
      body: { monitorId: 'nope' },
    });
    const restMessage = ((await rest.json()) as { error: { details: Array<{ message: string }> } })
      .error.details[0]?.message;
    expect(restMessage).toBe('must be a monitor id');
    const result = await client.callTool({
      name: 'search_matches',
      arguments: { monitorId: 'nope' },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(restMessage);
    const query = await client.callTool({ name: 'preview_query', arguments: { query: '(' } });
    expect(query.isError).toBe(true);
    const restQuery = await app.api('/api/monitors/preview', {
      token,
      method: 'POST',
      body: { query: '(' },
    });
    expect(textOf(query)).toBe(
      ((await restQuery.json()) as { error: { message: string } }).error.message,
    );
  });

  test('a read key cannot call a write tool; no key or an unknown key is 401', async () => {
    const client = await connect(await keyOf('read'));
    const result = await client.callTool({ name: 'create_monitor', arguments: { query: 'rust' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/can only read/);
    const monitors = JSON.parse(textOf(await client.callTool({ name: 'list_monitors' })));
    expect(monitors.some((m: { query: string }) => m.query === 'rust')).toBe(false);

    const bare = await fetch(`${app.url}/mcp`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(bare.status).toBe(401);
    await expect(connect(`esk_${'B'.repeat(32)}`)).rejects.toThrow();
  });
});
