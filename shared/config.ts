import * as v from 'valibot';

/** A configuration problem found at start-up: fail fast, naming every bad variable. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Parses the environment once at a composition root; required by default, fail-fast. */
export function readConfig<S extends v.GenericSchema>(schema: S, env: Record<string, string | undefined>): v.InferOutput<S> {
  const result = v.safeParse(schema, env);
  if (result.success) return result.output;
  const problems = result.issues.map((issue) => `${v.getDotPath(issue) ?? '(root)'}: ${issue.message}`);
  throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
}
