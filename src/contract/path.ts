/**
 * Fills `:name` segments of a path with URL-encoded values. Apart from the schemas (endpoint.ts) so the web
 * app's HTTP client needs no zod in the bundle the login screen loads.
 */
export function buildPath(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:([A-Za-z_]+)/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined) throw new Error(`missing path parameter ${key} for ${path}`);
    return encodeURIComponent(String(value));
  });
}
