/**
 * A 201 answer: the new resource's view, and its address in Location (RFC 9110 section 15.3.2: without one, a client
 * takes the request's own URI, the collection, for the new resource).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

export function sendCreated<T extends { id: string }>(request: FastifyRequest, reply: FastifyReply, resource: T): FastifyReply {
  return reply.code(201).header('location', `${request.routeOptions.url}/${encodeURIComponent(resource.id)}`).send(resource);
}
