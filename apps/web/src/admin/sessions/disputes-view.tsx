// Placeholder until the disputes work lands: the Sessions screen shows it under ?view=disputes.
export default function DisputesView() {
  return null;
}
