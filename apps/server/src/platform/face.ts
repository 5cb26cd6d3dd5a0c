/**
 * The face check at the exit, behind one interface so a real verifier (a
 * camera system's service) can be plugged in. It is asked only for shoppers
 * who gave their consent, in stores with the face_checkout module, and it is
 * given ids, never images: whatever it holds for a visit it must drop when
 * the visit ends.
 */
export interface FaceVerifier {
  verify(request: { customerId: string; sessionId: string; storeId: string }): Promise<boolean>;
}

/** Until a verifier is configured, nobody is verified: the exit page falls back to the exit QR code. */
export const noFaceVerifier: FaceVerifier = {
  async verify() {
    return false;
  },
};
