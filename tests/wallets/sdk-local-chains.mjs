// A module hook for @avalanche-sdk/client 0.1.1 (the registry's newest): its cross-chain
// builders name the other chain by alias and resolve the alias from a table of Mainnet's and
// Fuji's chain IDs, throwing "Invalid network ID" for any other network
// (src/methods/wallet/utils.ts, `getChainIdFromAlias`), so its C <-> P examples cannot run on
// a local network (the devnet's 12345, the CI node's 1337) as published. Upstream fixed this
// after 0.1.1 (ava-labs/avalanche-sdk-typescript 2e68ee7f, #369: a local network's chain IDs
// come from the node). This hook does the same on load: in every bundle of the SDK, the
// function is made to answer first from `globalThis.__avalancheLocalChains[networkID][alias]`,
// a table the caller fills from the node's `info.getBlockchainID`, and otherwise to behave
// as before. `patched` counts the bundles changed; the caller checks it is not 0, so a
// version whose code differs fails loudly instead of running unpatched.
//
//   import { register } from "node:module";
//   register("./sdk-local-chains.mjs", import.meta.url);

const GUARD =
  /function ([\w$]+)\(([\w$]+),([\w$]+)\)\{if\(1!==\3&&5!==\3\)throw new Error\(`Invalid network ID: \$\{\3\}`\);/g;

export async function load(url, context, nextLoad) {
  const loaded = await nextLoad(url, context);
  if (!url.includes("/@avalanche-sdk/client/dist/_esm/") || loaded.format !== "module") {
    return loaded;
  }
  const source = String(loaded.source);
  let n = 0;
  const patched = source.replace(GUARD, (_m, name, alias, net) => {
    n++;
    return (
      `function ${name}(${alias},${net}){{const __lc=globalThis.__avalancheLocalChains?.[${net}];` +
      `if(__lc&&__lc[${alias}])return __lc[${alias}];}` +
      `if(1!==${net}&&5!==${net})throw new Error(\`Invalid network ID: \${${net}}\`);`
    );
  });
  if (n === 0) return loaded;
  return {
    ...loaded,
    source: patched + `\n;globalThis.__avalancheSdkPatched=(globalThis.__avalancheSdkPatched??0)+${n};\n`,
  };
}
