// The page's client of caberd: the generated service descriptor of
// proto/caber/v1/caber.proto, called with gRPC-Web (binary) on the origin
// that served the page. Nothing here that a plain client could not do.
import { createClient, type Client } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-web";
import { GameEngine } from "./gen/caber/v1/caber_pb";

export type Engine = Client<typeof GameEngine>;

/** A client of the caberd at `baseUrl`, sending `token` if there is one. */
export function connect(baseUrl: string, token?: string): Engine {
  const transport = createGrpcWebTransport({
    baseUrl,
    useBinaryFormat: true,
    interceptors: token
      ? [
          (next) => (request) => {
            request.header.set("authorization", `Bearer ${token}`);
            return next(request);
          },
        ]
      : [],
  });
  return createClient(GameEngine, transport);
}
