// Types of scripts/reference.mjs, for the tests that import it.
import type { Command } from 'commander';

/** A heading's anchor as GitHub makes it. */
export function anchor(heading: string): string;

/** Every page of the reference, by its path from the repository's root. */
export function renderReference(
  root: Command,
  topics: Readonly<Record<string, { summary: string; text: string }>>,
  version: string,
): Record<string, string>;
