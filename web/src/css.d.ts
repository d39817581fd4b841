// Vite bundles CSS imported from a module (the Party Board and Tile Race pages import theirs).
declare module "*.css";
