// Placeholder until the spot-check work lands: the Sessions screen shows it under ?view=spot-checks.
export default function SpotChecksView() {
  return null;
}
