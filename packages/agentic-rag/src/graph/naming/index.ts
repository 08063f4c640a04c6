export {
  VERSION_SEGMENT,
  isPluralName,
  nameWords,
  pluralWord,
  resourceForms,
  resourceName,
  resourceOfPath,
  resourceOfSchema,
} from './resource-name.js';
