// The kingdomino board.  Until its own drawing lands it shows the generic board.
export { render } from "./generic.js";
