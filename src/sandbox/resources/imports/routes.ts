import { requireBulkObjectType } from '../../request.ts';
import type { Resource } from '../../resource.ts';
import { getImportJob, importRecords } from './handlers.ts';
import { importsSlice } from './model.ts';
import { runnerOf } from './runner.ts';

export const importsResource: Resource = {
  name: 'imports',
  slices: [importsSlice],
  // Jobs restored from a data file resume at start; the steps stop when the sandbox closes.
  start: (store) => {
    const runner = runnerOf(store);
    runner.kick();
    return () => runner.stop();
  },
  routes: [
    {
      kind: 'api',
      method: 'POST',
      path: '/v2/prism/{teamId}/{objectType}/import',
      operationId: 'importRecords',
      resolve: requireBulkObjectType,
      handler: importRecords,
    },
    {
      kind: 'api',
      method: 'GET',
      path: '/v2/prism/{teamId}/imports/{jobId}',
      operationId: 'getImportJob',
      handler: getImportJob,
    },
  ],
};
