/* The point-to-point protocol over the transport.
 *
 *   EAGER  a whole message (up to the eager limit) in one packet; matched on arrival, or kept
 *          as an unexpected message until a receive is posted. A synchronous send asks for an
 *          ACK when it is matched.
 *   RTS    ready to send: the envelope of a large message. When it is matched the receiver
 *          answers CTS (clear to send) with how many bytes it takes, and the sender pipelines
 *          them in DATA packets, which the receiver copies into place as they arrive.
 */
#ifndef MICA_PROTO_H
#define MICA_PROTO_H

enum mica_pkt_type { MICA_PKT_PAD = 0, MICA_PKT_EAGER, MICA_PKT_RTS, MICA_PKT_CTS,
                     MICA_PKT_DATA, MICA_PKT_ACK };

#define MICA_PKT_SYNC 1               /* flags: EAGER from a synchronous send wants an ACK */

#endif
