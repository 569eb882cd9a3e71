import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { useRouteLoaderData } from "react-router";
import { formatBytes } from "../../lib/media.ts";

/** What /api/uploads answers with (the parts the browser uses). */
export interface UploadedMedia {
  id: string;
  url: string;
  originalName: string;
  width: number;
  height: number;
  srcSet: string;
}

export type UploadState =
  | { status: "idle" }
  | { status: "uploading"; name: string }
  | { status: "done"; media: UploadedMedia }
  | { status: "error"; message: string };

const DEFAULT_MAX = 10 * 1024 * 1024;

/** The upload limit from the root loader (sent to admins only). */
export function useUploadMaxBytes(): number {
  const root = useRouteLoaderData("root");
  if (root && typeof root === "object" && "uploadMaxBytes" in root && typeof root.uploadMaxBytes === "number") {
    return root.uploadMaxBytes;
  }
  return DEFAULT_MAX;
}

function isUploadedMedia(value: unknown): value is UploadedMedia {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.id === "string" && typeof v.url === "string" && typeof v.width === "number";
}

/**
 * Sends one image to /api/uploads and keeps a translated status for a live
 * region. Too-large files are refused in the browser before any byte is sent.
 */
export function useUpload() {
  const { t } = useTranslation("media");
  const maxBytes = useUploadMaxBytes();
  const [state, setState] = useState<UploadState>({ status: "idle" });
  const size = formatBytes(maxBytes);

  const errorMessage = useCallback(
    (code: string): string => {
      const known = [
        "invalid-format",
        "too-large",
        "too-many-pixels",
        "quota-exceeded",
        "unauthenticated",
        "unauthorized",
        "too-many-requests",
        "no-file",
        "network",
      ] as const;
      const match = known.find((k) => k === code);
      return match ? t(`upload.errors.${match}`, { size }) : t("upload.errors.unknown");
    },
    [t, size],
  );

  const upload = useCallback(
    async (file: File): Promise<UploadedMedia | null> => {
      if (file.size > maxBytes) {
        setState({ status: "error", message: errorMessage("too-large") });
        return null;
      }
      setState({ status: "uploading", name: file.name });
      const body = new FormData();
      body.append("file", file, file.name);
      let response: Response;
      try {
        response = await fetch("/api/uploads", { method: "POST", body, credentials: "same-origin" });
      } catch {
        setState({ status: "error", message: errorMessage("network") });
        return null;
      }
      const json: unknown = await response.json().catch(() => null);
      if (
        response.status === 201 &&
        json &&
        typeof json === "object" &&
        "media" in json &&
        isUploadedMedia(json.media)
      ) {
        setState({ status: "done", media: json.media });
        return json.media;
      }
      const code = json && typeof json === "object" && "code" in json && typeof json.code === "string" ? json.code : "";
      setState({ status: "error", message: errorMessage(response.status === 413 ? "too-large" : code) });
      return null;
    },
    [maxBytes, errorMessage],
  );

  return { state, upload, maxBytes, sizeLabel: size };
}

export const IMAGE_ACCEPT =
  "image/jpeg,image/png,image/webp,image/gif,image/avif,image/svg+xml,.jpg,.jpeg,.png,.webp,.gif,.avif,.svg";
