/**
 * react-bootstrap's Form from its own module rather than the package's index. Home's file
 * (`home-parts`, vite.config.ts) takes "Can I afford it?" and the form pieces it uses; reached through
 * the index, the placement there also took every component the index names (the modal and its
 * transitions among them, which the dialogs use after the paint) onto Home's path (decision 0111).
 */
import type { Form as FormComponent } from 'react-bootstrap';
import * as formModule from 'react-bootstrap/Form';

// The bundler loads the ES module the package's `module` field names, whose default is the component;
// TypeScript's NodeNext view of the package (CommonJS) puts it one `default` deeper. The type is the
// index's, the value the module's.
export const Form = formModule.default as unknown as typeof FormComponent;
