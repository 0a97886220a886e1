// ESLint's recommended rules over the pages' plain ES modules (no build step).
// Run from tests/test_code_quality.py; installed by scripts/test (npm ci here).
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.browser },
    },
  },
];
