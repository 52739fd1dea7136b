import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { Hono } from 'hono';
import { z } from 'zod';
import { authenticateApiKey } from '../../core/api-keys/authenticate-api-key.ts';
import { DomainError } from '../../core/errors.ts';
import { getMatch } from '../../core/matches/get-match.ts';
import { markMatchesRead } from '../../core/matches/mark-matches-read.ts';
import { rateMatch } from '../../core/matches/rate-match.ts';
import { createMonitor } from '../../core/monitors/create-monitor.ts';
import { listMonitors } from '../../core/monitors/list-monitors.ts';
import { createPreviewGate, type PreviewGate } from '../../core/monitors/preview-gate.ts';
import { previewMonitor } from '../../core/monitors/preview-monitor.ts';
import { updateMonitor } from '../../core/monitors/update-monitor.ts';
import { listMatches } from '../../matches/list-matches.ts';
import type { ApiKeyScope } from '../../shared/api-keys.ts';
import {
  listMatchesQuerySchema,
  MATCH_RATINGS,
  markMatchesReadBodySchema,
  matchIdSchema,
} from '../../shared/match.ts';
import { createMonitorBodySchema, previewMonitorBodySchema } from '../../shared/monitor.ts';
import type { AppDeps } from '../app-deps.ts';
import { readToken } from '../http/require-auth.ts';

/** What a read key is told by a write tool: the REST API's 403 message. */
const READ_ONLY =
  'This API key can only read. Create a key with the write scope to change monitors or matches.';

const monitorIdSchema = z.strictObject({ monitorId: z.uuid('must be a monitor id') });

type Caller = { userId: string; scope: ApiKeyScope };
type ToolResult = { content: { type: 'text'; text: string }[]; isError?: boolean };

/**
 * POST /mcp: the Model Context Protocol over Streamable HTTP (stateless: a server and transport
 * per request, so any web process answers any call), authenticated with an API key
 * (docs/decisions/0030-mcp.md). Each tool validates with the zod schema of its REST route and
 * calls the same domain verb; a domain error is answered with the REST API's message.
 */
export function createMcpRoutes(deps: Pick<AppDeps, 'database' | 'config' | 'version'>) {
  const db = deps.database.db;
  // The MCP server's previews take their turns and share of the database like the API's.
  const gate = createPreviewGate({ sharePercent: deps.config.PREVIEW_DB_SHARE_PERCENT });
  const app = new Hono();
  app.post('/', async (c) => {
    const key = readToken(c.req.header('authorization'));
    const check = key ? await authenticateApiKey({ db }, key) : null;
    if (!check?.ok) {
      c.header('WWW-Authenticate', 'Bearer realm="earshot"');
      return c.json(
        {
          error: {
            code: 'UNAUTHORIZED',
            message:
              check?.ok === false && check.reason === 'revoked'
                ? 'This API key was revoked. Create a new one in Settings → API keys.'
                : 'The MCP server needs an API key: Authorization: Bearer esk_… (Settings → API keys).',
          },
        },
        401,
      );
    }
    const server = buildServer(deps, gate, { userId: check.key.userId, scope: check.key.scope });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(c.req.raw);
    } finally {
      void server.close();
    }
  });
  app.all('/', (c) =>
    c.json(
      {
        error: {
          code: 'METHOD_NOT_ALLOWED',
          message: 'The MCP server is stateless: send JSON-RPC with POST /mcp.',
        },
      },
      405,
    ),
  );
  return app;
}

function buildServer(
  deps: Pick<AppDeps, 'database' | 'config' | 'version'>,
  gate: PreviewGate,
  caller: Caller,
) {
  const db = deps.database.db;
  const { config } = deps;
  const breadth = { db, gate, maxMatchPercent: config.MONITOR_MAX_MATCH_PERCENT };
  const { userId } = caller;
  const server = new McpServer({ name: 'earshot', version: deps.version });
  server.registerTool(
    'list_monitors',
    { description: 'The monitors (saved queries) of the key’s owner, oldest first.' },
    () => answer(() => listMonitors({ db }, userId)),
  );
  server.registerTool(
    'search_matches',
    {
      description:
        'Matches, newest first: `q` searches their text, `monitorId` and `source` (site) narrow them, `unread` "true" keeps unread ones, `minRelevance` (0–1) keeps those scored at least that, `sort` "relevance" puts the most relevant first, `limit` 1–100, `cursor` is `nextCursor` of the page before.',
      inputSchema: listMatchesQuerySchema,
    },
    (query) => answer(() => listMatches({ db }, { userId, query })),
  );
  server.registerTool(
    'get_match',
    {
      description: 'One match by its id (from search_matches), with its snippet and links.',
      inputSchema: z.strictObject({ id: matchIdSchema }),
    },
    ({ id }) => answer(() => getMatch({ db }, { userId, matchId: id })),
  );
  server.registerTool(
    'preview_query',
    {
      description:
        'What a query would have found in the last 7 days of stored items, with the expected alerts a day. Saves nothing.',
      inputSchema: previewMonitorBodySchema,
    },
    (body) =>
      answer(async () => {
        const leave = gate.enter(caller.userId);
        try {
          const budget = { items: config.PREVIEW_BUDGET_ITEMS, ms: config.PREVIEW_BUDGET_MS };
          return await previewMonitor({ db, gate, budget }, body);
        } finally {
          leave();
        }
      }),
  );
  server.registerTool(
    'create_monitor',
    { description: 'Save a new monitor (write key).', inputSchema: createMonitorBodySchema },
    (body) =>
      answer(
        () =>
          createMonitor(
            { ...breadth, maxMonitorsPerUser: config.MAX_MONITORS_PER_USER },
            { userId, body },
          ),
        caller,
      ),
  );
  server.registerTool(
    'pause_monitor',
    {
      description: 'Pause a monitor: it stops matching (write key).',
      inputSchema: monitorIdSchema,
    },
    ({ monitorId }) =>
      answer(
        () =>
          updateMonitor({ ...breadth, config }, { userId, monitorId, changes: { paused: true } }),
        caller,
      ),
  );
  server.registerTool(
    'mark_read',
    {
      description: 'Mark every unread match read, or those of one monitor (write key).',
      inputSchema: markMatchesReadBodySchema,
    },
    ({ monitorId }) => answer(() => markMatchesRead({ db }, { userId, monitorId }), caller),
  );
  server.registerTool(
    'rate_match',
    {
      description:
        'Rate a match relevant or irrelevant (null takes the rating back): its monitor learns from it and scores its matches again (write key).',
      inputSchema: z.strictObject({
        id: matchIdSchema,
        rating: z.enum(MATCH_RATINGS).nullable(),
      }),
    },
    ({ id, rating }) => answer(() => rateMatch({ db }, { userId, matchId: id, rating }), caller),
  );
  return server;
}

/**
 * Runs a verb and answers its result as JSON text; a write tool (`writer` given) needs a write
 * key. A domain error becomes a tool error with the REST API's message; anything else is thrown
 * (the SDK answers it as an internal error).
 */
async function answer(run: () => Promise<unknown>, writer?: Caller): Promise<ToolResult> {
  if (writer && writer.scope !== 'write') {
    return { content: [{ type: 'text', text: READ_ONLY }], isError: true };
  }
  try {
    return { content: [{ type: 'text', text: JSON.stringify(await run()) }] };
  } catch (error) {
    if (error instanceof DomainError) {
      return { content: [{ type: 'text', text: error.message }], isError: true };
    }
    throw error;
  }
}
