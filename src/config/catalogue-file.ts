// The catalogue of programs shipped beside the default policy (policy/commands.yaml).
import { type CatalogueFile, loadCatalogueFile } from "../core/policy/catalogue-load.js";
import { packagePath } from "../package-dir.js";
import { readPolicyBytes } from "./policy-file.js";

const CATALOGUE_PATH = packagePath("policy", "commands.yaml");

/** The shipped catalogue; throws ConfigError (exit 78) if the file is missing or wrong. */
export function readCatalogue(path: string = CATALOGUE_PATH): CatalogueFile {
  const { text } = readPolicyBytes(path, path);
  return loadCatalogueFile(text, path);
}
