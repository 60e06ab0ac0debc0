declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin URL of the throwaway PostgreSQL cluster of this test run, or null when there is none. */
    pgAdminUrl: string | null;
  }
}

export {};
