export { runningImportsOf } from './runner.js';
