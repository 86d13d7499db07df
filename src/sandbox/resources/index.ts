// The resources the sandbox serves. Adding one: a folder resources/<name>/ with routes.ts,
// handlers.ts and model.ts, and one line here.

import type { Resource } from '../resource.ts';
import { recordsResource } from './records/routes.ts';
import { webhooksResource } from './webhooks/routes.ts';

export const resources: readonly Resource[] = [recordsResource, webhooksResource];
