/** A stored conversation of the assistant: read, then shown and continued (Conversation.tsx). */
import { AsyncResult } from "effect/reactivity"
import { useAtomValue } from "../../api/react.ts"
import { Failure, Loading } from "../../ui/States.tsx"
import { Conversation } from "./Conversation.tsx"
import { conversationAtom } from "./queries.ts"

export const StoredConversation = (props: { readonly organizationId: string; readonly conversationId: string; readonly onSent: () => void }) => {
  const result = useAtomValue(conversationAtom(`${props.organizationId}\n${props.conversationId}`))
  if (AsyncResult.isFailure(result)) return <Failure result={result} />
  if (!AsyncResult.isSuccess(result)) return <Loading what="the conversation" />
  return <Conversation organizationId={props.organizationId} conversationId={props.conversationId} messages={result.value.messages} onSent={props.onSent} />
}
