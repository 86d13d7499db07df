// See undici.ts: compile WebAssembly with V8's baseline compiler only.
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--liftoff-only');
