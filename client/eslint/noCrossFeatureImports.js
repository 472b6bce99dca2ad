// ESLint rule: a feature (src/features/<name>/) does not import another feature. Shared code lives
// in src/lib or src/components. The few features that compose others (the device page shows the
// clinical workspace, which shows the analysis, capture and patient panels) are listed in the
// rule's `compose` option, and even they import only the other feature's public entry
// (`../<feature>`, its index.ts), never a file inside it.
import path from 'node:path';

/** The feature a file or import target belongs to and the rest of its path, or null outside src/features. */
export function featureOf(file) {
  const parts = path.normalize(file).split(path.sep);
  const at = parts.lastIndexOf('features');
  if (at < 1 || parts[at - 1] !== 'src' || !parts[at + 1]) return null;
  return { name: parts[at + 1], inner: parts.slice(at + 2).join('/') };
}

export const noCrossFeatureImports = {
  meta: {
    type: 'problem',
    docs: { description: 'client features do not import each other; move shared code to src/lib or src/components' },
    schema: [{ type: 'object', properties: { compose: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } } }, additionalProperties: false }],
    messages: {
      crossFeature: "The feature '{{from}}' imports from the feature '{{to}}': move the shared code to src/lib or src/components.",
      deepImport: "The feature '{{from}}' composes '{{to}}' and imports only its public entry ('{{entry}}'), not '{{source}}'.",
    },
  },
  create(context) {
    const from = featureOf(context.filename);
    if (!from) return {};
    const composes = context.options[0]?.compose?.[from.name] ?? [];
    const check = (node) => {
      const source = node.source?.value;
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const to = featureOf(path.resolve(path.dirname(context.filename), source));
      if (!to || to.name === from.name) return;
      if (!composes.includes(to.name)) {
        context.report({ node: node.source, messageId: 'crossFeature', data: { from: from.name, to: to.name } });
      } else if (to.inner !== '' && to.inner !== 'index' && to.inner !== 'index.ts') {
        context.report({ node: node.source, messageId: 'deepImport', data: { from: from.name, to: to.name, entry: `features/${to.name}`, source } });
      }
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};
