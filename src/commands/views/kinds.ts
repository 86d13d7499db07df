// View types the API takes (facts.md), from the contract; kept apart from shared.ts so the
// command tree can name them without loading what the verbs need.
import { ViewType } from '../../generated/enums.ts';

export const VIEW_KINDS = ViewType;
