/**
 * The start-up line saying how the mock folder is served and how to change it: the json-server
 * preset (collections, json-server's query syntax) or the spec's file mode.
 */
import type { MockApi } from '../engine/create-mock-api.js';

export function modeLine(api: MockApi, configFile: string | undefined): string {
  const { preset, collections, proxy } = api.options;
  if (proxy?.record?.serveFiles === false) return '  Mode: recording';
  if (preset === 'json-server') {
    const change = configFile ? "remove preset: 'json-server' from the config" : 'use --preset none';
    return `  Mode: REST collections, json-server query syntax (preset json-server; for plain file mode ${change})`;
  }
  const how = configFile ? "add preset: 'json-server' to the config's mock options, or use --preset json-server" : 'use --preset json-server';
  return `  Mode: files as stored${collections ? ' with item routes (collections)' : ''} (for REST collections and json-server query syntax, ${how})`;
}
