import { z } from 'zod';
import type { Endpoint } from '../../contract/endpoint.ts';
import { errorBody } from '../../contract/endpoint.ts';
import { exportColumns, exportEndpoints } from '../../contract/export.ts';
import * as modules from '../../contract/index.ts';
import { journalCsv } from '../../contract/leitstand/bestand.ts';
import { runImport } from '../../contract/leitstand/import.ts';
import { leitstandLive } from '../../contract/leitstand/uebersicht.ts';

/**
 * The OpenAPI 3.1 document of the whole API, generated from the zod contract (src/contract): every call's
 * path, parameters, body and answer come from its descriptor, so the document cannot drift from the code.
 * Served at /api/openapi.json and shown by the viewer at /api/docs.
 */
type JsonSchema = Record<string, unknown>;
type Operation = Record<string, unknown>;

/**
 * The document's tags, in the order the viewer lists them, each with the contract modules whose calls it
 * shows. A tag may group several features' modules (the capture stations; packing and its cartons).
 */
const TAGS: Record<string, { description: string; modules: Record<string, unknown>[] }> = {
  auth: { description: 'Login and logout of the scanner app', modules: [modules.auth] },
  // The shared lookups (lookup.ts) keep the tag they were published under: their paths are Inventur's.
  inventur: {
    description: 'Inventur: count stock on a location',
    modules: [modules.inventur, modules.lookup],
  },
  zaehlauftrag: {
    description:
      'Permanente Inventur on the handheld: claim the next count task, count its location blind (no answer carries the book stock), finish',
    modules: [modules.zaehlauftrag],
  },
  umbuchung: { description: 'Move stock between locations', modules: [modules.umbuchung] },
  nachschub: { description: 'Replenishment of pick places', modules: [modules.nachschub] },
  capture: {
    description: 'Batches, containers, transporters, parcels out and returns',
    modules: [modules.batch, modules.container, modules.transporter, modules.paketausgang, modules.retoure],
  },
  paketinhalt: {
    description: 'Packing station: package content and cartons',
    modules: [modules.paketinhalt, modules.kartonagen],
  },
  kommissionierung: {
    description:
      'Picking delivery notes before packing: claim, pick, Fehlmenge, let go; one note at a time or many on a pick cart (Kommissionierwagen)',
    modules: [modules.kommissionierung, modules.kommissionierwagen],
  },
  wmsretoure: { description: 'WMS returns', modules: [modules.wmsretoure] },
  zollpaket: { description: 'Customs parcels on carts', modules: [modules.zollpaket] },
  wareneingang: {
    description:
      'Receiving goods onto locations; PUT /api/integration/receipts/{number} is for an integration token only (the ERP announcing a receipt).',
    modules: [modules.wareneingang],
  },
  leitstand: {
    description:
      'The Leitstand in the browser: calls under /api/leitstand/ need the role schichtleitung, under /api/admin/ the role admin (a lower role gets 403).',
    modules: [...modules.leitstandModules],
  },
  etiketten: {
    description:
      'Labels as PDF or ZPL II (schichtleitung; badges: admin, the card texts in the body) and printing to a network label printer.',
    modules: [modules.etiketten],
  },
  export: {
    description:
      'Journals for other systems, for an integration token only. Pages in (time, id) order; pass nextCursor as cursor to continue.',
    modules: [modules.exportApi],
  },
};

/** Every call the server has: the spec's, ours beside it, and the export API's. */
const CALLS: readonly Endpoint[] = [
  ...modules.contract,
  ...modules.extraContract,
  ...modules.leitstandContract,
  ...modules.etikettenContract,
  ...modules.exportContract,
];

function tagOf(endpoint: Endpoint): string {
  const tag = Object.entries(TAGS).find(([, tagged]) =>
    tagged.modules.some((module) => Object.values(module).includes(endpoint)),
  )?.[0];
  if (!tag) throw new Error(`${endpoint.name} belongs to no tag of the API document`);
  return tag;
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'any',
  });
  return rest;
}

/** `/api/umbuchung/:lpId` → `/api/umbuchung/{lpId}` */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z_]+)/g, '{$1}');

/** One parameter per property of an object schema (path or query). */
function parameters(schema: z.ZodType, where: 'path' | 'query'): JsonSchema[] {
  const object = jsonSchema(schema, 'input');
  const properties = (object.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((object.required ?? []) as string[]);
  return Object.entries(properties).map(([name, { description, ...propertySchema }]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    ...(typeof description === 'string' ? { description } : {}),
    schema: propertySchema,
  }));
}

const error = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

function operation(endpoint: Endpoint, tag: string): Operation {
  const params = [
    ...parameters(endpoint.params, 'path'),
    ...(endpoint.query ? parameters(endpoint.query, 'query') : []),
    ...(endpoint.idempotent ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : []),
  ];
  const answer = { schema: jsonSchema(endpoint.response, 'output') };
  const integration = endpoint.audience === 'integration';
  const feed = Object.entries(exportEndpoints).find(([, e]) => e === endpoint)?.[0] as
    | keyof typeof exportColumns
    | undefined;
  return {
    operationId: endpoint.name,
    tags: [tag],
    ...(endpoint.role && endpoint.role !== 'mitarbeiter'
      ? { description: `Needs the role ${endpoint.role}.` }
      : {}),
    security: !endpoint.auth
      ? []
      : integration
        ? [{ integrationToken: [] }]
        : [{ sessionToken: [] }, { accessToken: [] }],
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(endpoint.method === 'GET'
      ? {}
      : {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchema(endpoint.body, 'input') } },
          },
        }),
    responses: {
      200: {
        description: 'Done',
        ...(feed
          ? {
              headers: {
                'X-Next-Cursor': {
                  description: 'With format=csv: the nextCursor',
                  schema: { type: 'string' },
                },
                'X-Has-More': { description: 'With format=csv: hasMore', schema: { type: 'string' } },
              },
            }
          : {}),
        content: {
          ...(labelFile(endpoint) ?? { 'application/json': answer }),
          ...(feed
            ? {
                'text/csv': {
                  schema: {
                    type: 'string',
                    description: `Header row ${exportColumns[feed].join(',')}, then one row per item (RFC 4180).`,
                  },
                },
              }
            : {}),
        },
      },
      400: error('Invalid input (the message names the field)'),
      ...(endpoint.auth
        ? {
            401: error(
              integration ? 'No, unknown or revoked integration token' : 'Not logged in or session expired',
            ),
            403: error(
              integration
                ? 'A scanner login, not an integration token'
                : endpoint.role && endpoint.role !== 'mitarbeiter'
                  ? `An integration token, not a login; or a login below the role ${endpoint.role}`
                  : 'An integration token, not a login',
            ),
          }
        : {}),
      ...(endpoint.idempotent ? { 409: error('Refused, or this key was used for another request') } : {}),
      500: error('Server error (details only in the server log)'),
      ...(admitted(endpoint)
        ? {
            503: {
              ...error(
                heavy(endpoint)
                  ? 'Overloaded, or as many heavy operations (exports, imports, large label runs) run already: nothing was done; try again after Retry-After seconds'
                  : 'Overloaded: nothing was done; try again after Retry-After seconds',
              ),
              headers: {
                'Retry-After': {
                  description: 'Seconds to wait before trying again',
                  schema: { type: 'integer' },
                },
              },
            },
          }
        : {}),
    },
  };
}

/**
 * Whether a call waits in the admission gate and so may be answered 503 when the server is overloaded
 * (decision 26, DESIGN §10): every call but the Leitstand's live stream, which stays open.
 */
function admitted(endpoint: Endpoint): boolean {
  return endpoint !== leitstandLive;
}

/** The calls that may be heavy operations, at most HEAVY_OPERATIONS_MAX at once (503 with Retry-After). */
function heavy(endpoint: Endpoint): boolean {
  return (
    endpoint === journalCsv ||
    endpoint === runImport ||
    endpoint === modules.etiketten.drucken ||
    labelFile(endpoint) !== null
  );
}

/** A label download answers a file: PDF or ZPL (plain text), not JSON. */
function labelFile(endpoint: Endpoint): Record<string, unknown> | null {
  const binary = { schema: { type: 'string', format: 'binary' } };
  if (endpoint === modules.etiketten.ausweisDatei) return { 'application/pdf': binary, 'text/plain': binary };
  if (endpoint.path.startsWith('/api/etiketten/') && endpoint.method === 'GET')
    return endpoint.path.endsWith('.pdf') ? { 'application/pdf': binary } : { 'text/plain': binary };
  return null;
}

/** The health checks a load balancer calls: no contract calls, so described here. */
const HEALTH: Record<string, Record<string, Operation>> = {
  '/healthz': {
    get: {
      operationId: 'healthz',
      tags: ['health'],
      security: [],
      summary: 'The process is up',
      responses: {
        200: { description: 'Up', content: { 'application/json': { schema: { type: 'object' } } } },
      },
    },
  },
  '/readyz': {
    get: {
      operationId: 'readyz',
      tags: ['health'],
      security: [],
      summary: 'The database is reachable (503 if not, or for 30 s after its disk was full)',
      responses: {
        200: { description: 'Ready', content: { 'application/json': { schema: { type: 'object' } } } },
        503: error('Not ready'),
      },
    },
  },
};

export function openApiDocument(version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, Operation>> = { ...HEALTH };
  for (const endpoint of CALLS) {
    const path = openApiPath(endpoint.path);
    paths[path] = { ...paths[path], [endpoint.method.toLowerCase()]: operation(endpoint, tagOf(endpoint)) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Lagerscanner API',
      version,
      description:
        'The API of the Lagerscanner web app (scanner calls, with a login) and the export API for other ' +
        'systems (with an integration token from `npm run token -- create <name>`). Errors answer ' +
        '`{ "success": false, "message": "…" }`; messages for staff are German, those of the export API English.',
    },
    tags: [
      ...Object.entries(TAGS).map(([name, { description }]) => ({ name, description })),
      { name: 'health', description: 'Health checks for a load balancer or monitoring' },
    ],
    paths,
    components: {
      securitySchemes: {
        sessionToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'The token a login answers (POST /api/user/login or /api/user/login/qrcode).',
        },
        accessToken: {
          type: 'apiKey',
          in: 'header',
          name: 'Access-Token',
          description: 'The same login token in the header the scanner app also sends.',
        },
        integrationToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'An integration token (npm run token -- create <name>); only for /api/export/*.',
        },
      },
      parameters: {
        IdempotencyKey: {
          name: 'X-Idempotency-Key',
          in: 'header',
          required: true,
          description:
            'A new UUID per action, the same on every retry of it: the server applies the action exactly once and answers a retry with the first answer.',
          schema: { type: 'string', format: 'uuid' },
        },
      },
      schemas: { Error: jsonSchema(errorBody, 'output') },
    },
  };
}
