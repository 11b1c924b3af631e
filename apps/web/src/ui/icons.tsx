/**
 * The app's icons: Lucide's (a maintained set, drawn on one 24 px grid with one stroke), each
 * imported by name so the build keeps only these. Decorative: hidden from assistive technology,
 * beside words that name the action. Use these names, never lucide-react directly (docs/design.md).
 */
import type { LucideIcon } from "lucide-react"
import { createElement } from "react"
import {
  ArrowLeft, Bell, BookOpen, Check, ChevronDown, Download, FileCode, Ellipsis, FileText, Files, Folder, GitBranch, GitPullRequest, Globe,
  History, House, Inbox, Languages, Link2, ListChecks, LogOut, Menu, MessageCircleQuestionMark, MessageSquare, Monitor, Moon, Pencil, Plug, Plus, ScrollText, Search, SearchX, Settings, Share2, Sun,
  Sparkles, Trash2, Upload, UserPlus, UserRound, Users, UsersRound, X
} from "lucide-react"

/** An icon at the size of the text beside it (16 px on the base size; 18 in the header). */
const decorative = (Drawn: LucideIcon) => {
  const Icon = (props: { readonly size?: number }) =>
    createElement(Drawn, { className: "icon", size: props.size ?? 16, strokeWidth: 1.75, "aria-hidden": true, focusable: "false" })
  Icon.displayName = Drawn.displayName ?? "Icon"
  return Icon
}

export const AskIcon = decorative(Sparkles)
export const BackIcon = decorative(ArrowLeft)
export const AuditIcon = decorative(ScrollText)
export const BellIcon = decorative(Bell)
export const ChangeRequestIcon = decorative(GitPullRequest)
export const CheckIcon = decorative(Check)
export const ChevronDownIcon = decorative(ChevronDown)
export const CloseIcon = decorative(X)
export const CommentIcon = decorative(MessageSquare)
export const DownloadIcon = decorative(Download)
export const EditIcon = decorative(Pencil)
export const FilesIcon = decorative(Files)
export const FolderIcon = decorative(Folder)
export const GitIcon = decorative(GitBranch)
export const HistoryIcon = decorative(History)
export const HomeIcon = decorative(House)
export const InboxIcon = decorative(Inbox)
export const MembersIcon = decorative(Users)
export const MenuIcon = decorative(Menu)
export const MergeRulesIcon = decorative(ListChecks)
export const McpIcon = decorative(Plug)
export const MoonIcon = decorative(Moon)
export const MoreIcon = decorative(Ellipsis)
export const NoResultsIcon = decorative(SearchX)
export const QuestionIcon = decorative(MessageCircleQuestionMark)
export const PageIcon = decorative(FileText)
export const PlusIcon = decorative(Plus)
export const SearchIcon = decorative(Search)
export const SettingsIcon = decorative(Settings)
export const ShareIcon = decorative(Share2)
export const SiteIcon = decorative(Globe)
export const SpecIcon = decorative(FileCode)
export const SpaceIcon = decorative(BookOpen)
export const SunIcon = decorative(Sun)
export const TranslationIcon = decorative(Languages)
export const UploadIcon = decorative(Upload)
export const InviteIcon = decorative(UserPlus)
export const LinkIcon = decorative(Link2)
export const SignOutIcon = decorative(LogOut)
export const SystemThemeIcon = decorative(Monitor)
export const DeleteIcon = decorative(Trash2)
export const ProfileIcon = decorative(UserRound)
export const TeamsIcon = decorative(UsersRound)
