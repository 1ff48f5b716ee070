// What the type check takes on trust in the DOM: an element found by selector or id is
// whatever the page's template put there (an input, a button, a link…), which only the
// template knows. So `querySelector`, `querySelectorAll`, `getElementById` and `closest`
// answer `any` here (lib.dom's answer is a bare `Element` or `HTMLElement`): the check is
// for the wire (static/js/types/wire.d.ts); the browser tests are for the pages.

interface ParentNode {
  querySelector(selectors: string): any;
  querySelectorAll(selectors: string): NodeListOf<any>;
}

interface Document {
  getElementById(elementId: string): any;
}

interface Element {
  closest(selectors: string): any;
}

// Safari before 14.1 named the audio context so (core/sound.js).
interface Window {
  webkitAudioContext?: typeof AudioContext;
}
