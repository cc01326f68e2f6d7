/**
 * Files chosen elsewhere (Profile Settings' 'Import from a file') and handed to /import,
 * which takes them when it opens: the choice leads there rather than importing on a screen
 * of its own. Kept in memory only: a reload of /import does not bring a file back.
 */
let waiting: File[] = [];

export function handOverFiles(files: readonly File[]): void {
  waiting = [...files];
}

export function takeHandedOverFiles(): File[] {
  const files = waiting;
  waiting = [];
  return files;
}
