// The catalogue of programs shipped beside the default policy (policy/commands.yaml).
import { fileURLToPath } from "node:url";
import { type CatalogueFile, loadCatalogueFile } from "../core/policy/catalogue-load.js";
import { readPolicyBytes } from "./policy-file.js";

/** dist/config/ (or src/config/ under tests) → <package>/policy/commands.yaml. */
const CATALOGUE_PATH = fileURLToPath(new URL("../../policy/commands.yaml", import.meta.url));

/** The shipped catalogue; throws ConfigError (exit 78) if the file is missing or wrong. */
export function readCatalogue(path: string = CATALOGUE_PATH): CatalogueFile {
  const { text } = readPolicyBytes(path, path);
  return loadCatalogueFile(text, path);
}
